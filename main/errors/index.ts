/**
 * Every error type the main process raises, imported from here. Those with `toIpcError` cross IPC as they are (the
 * router calls it): ReviewError for expected failures, OmniError for calls to the service, the vault's own two. The
 * rest are caught where they are raised and told to the user there. `toIpcErrorData` turns any of them into what
 * crosses IPC, for the router and for background jobs alike.
 *
 * Not here: DeepLinkError stays with its parser in common/deep-link.ts, since common imports nothing from main; and
 * DemoHttpError stays in main/demo-server/errors.ts, since the demo server is a program of its own that answers
 * HTTP, not IPC.
 */
export { toIpcErrorData } from './ipc-error-data';
export { ReviewError, unknownEnvironment } from './review-error';
export { clientError, fieldIssues, OmniError } from './omni-error';
export { VaultDecryptError, VaultInputError } from './vault';
export { CsvError, DataDirInUseError, DemoRouteError, MediaRegistryError, StagingTooLargeError } from './internal';
