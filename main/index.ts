import { bootstrap } from './electron/bootstrap';
import { log } from './log';

/** Electron entry. Everything lives in electron/bootstrap.ts so it can be tested with a mocked `electron`. */
bootstrap().catch((error: unknown) => {
  log.error('Omni Reviewer failed to start', { error });
  process.exit(1);
});
