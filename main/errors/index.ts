/**
 * The error types the main process raises, imported from here. Those with `toIpcError` cross IPC as they are (the
 * router calls it): ReviewError for expected failures, the vault's own two, and OmniError (below) for calls to the
 * service. The rest are caught where they are raised and told to the user there. `toIpcErrorData` turns any of them
 * into what crosses IPC, for the router and for background jobs alike.
 *
 * Not here: OmniError lives with the client that raises it and the catalog that explains it, in
 * main/omni/omni-error.ts (the client imports the vault's errors from here, so main/errors imports nothing from
 * main/omni); DeepLinkError stays with its parser in common/deep-link.ts, since common imports nothing from main; and
 * DemoHttpError stays in main/demo-server/errors.ts, since the demo server is a program of its own that answers
 * HTTP, not IPC.
 */
export { toIpcErrorData } from './ipc-error-data';
export { ReviewError, unknownEnvironment } from './review-error';
export { VaultDecryptError, VaultInputError } from './vault';
export {
  CsvError,
  DataDirInUseError,
  DemoRouteError,
  MediaRegistryError,
  StagingLimitError,
  StagingTooLargeError,
} from './internal';
