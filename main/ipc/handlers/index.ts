import type { AllHandlers } from '../router';
import { appHandlers } from './app';
import { settingsHandlers } from './settings';
import { queueHandlers } from './queue';
import { interviewHandlers } from './interview';
import { nom151Handlers } from './nom151';
import { apikeysHandlers } from './apikeys';
import { validationHandlers } from './validation';
import { captureHandlers } from './capture';
import { teamHandlers } from './team';
import { evidenceHandlers } from './evidence';
import { bulkHandlers } from './bulk';

/**
 * Every domain of `common/ipc/index.ts` maps to its handler module here, one line each.
 * A handler module is typed `DomainHandlers<'domain'>` (see router.ts), so a missing or mistyped method fails tsc.
 */
export const handlers: AllHandlers = {
  app: appHandlers,
  settings: settingsHandlers,
  queue: queueHandlers,
  interview: interviewHandlers,
  nom151: nom151Handlers,
  apikeys: apikeysHandlers,
  validation: validationHandlers,
  capture: captureHandlers,
  team: teamHandlers,
  evidence: evidenceHandlers,
  bulk: bulkHandlers,
};
