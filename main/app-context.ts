import { join } from 'node:path';
import { captureState } from './capture/state';
import { removeLeftoverStaging } from './capture/staging';
import { makePrivateTree } from './private-files';
import { streamingFetch } from './capture/streaming-fetch';
import { embeddedDemo, type DemoHandle } from './demo-server/embedded';
import { startDemoServer } from './demo-server/index';
import type { SecretStore } from './auth/vault';
import { serviceDestination } from './auth/destination';
import { environmentVault } from './auth/environment-vault';
import type { FileJsonStore } from './json-store';
import { openRecord, recordForApp, type OpenRecord, type RecordEngine } from './record/index';
import { connectionFailed, teamDatabaseSettings } from './settings/team-database';
import { importLegacyFiles } from './record/import-legacy';
import { ChangeFeed } from './record/change-feed';
import { SharedTokenRecords, sharingVault, type TokenSharing } from './record/shared-session-tokens';
import type { ChainStatus, EnvironmentConfig, FileService, MainContext, ShellService } from './ports';
import { credentialService } from './settings/credentials';
import { environmentService } from './settings/environments';
import { ReviewError } from './errors';
import { log as defaultLog, type Logger } from './log';
import type { MediaStore } from './media/registry';
import { OmniClient } from './omni/client';
import { isPlainHttpToRemote } from '../common/ipc/settings';
import { RESYNC_NOTICE } from '../common/team-review';
import { checkpointAlarm, trailCheckpoints } from './trail/checkpoints';
import { seedDemoQueue } from './review/demo-seeds';
import { reviewService } from './review/service';

/**
 * Builds the MainContext both shells share from the parts that differ per shell (store, vault, media URLs, files,
 * OS actions). Holds the environments, starts the embedded demo server when the demo environment is in use and
 * loads its credentials into the vault, so a first run works with no typing.
 */

/** How long a start waits for the record's notices to be heard. */
const LISTEN_WAIT_MS = 5_000;

/** The embedded review record's folder, in the data folder. */
export const RECORD_FOLDER = 'review-record';

export interface AppContextOptions {
  shell: ShellService;
  store: FileJsonStore;
  /** The folder of the settings file: the embedded review record lives in it, and earlier versions' files are there. */
  dataDir: string;
  /** Where the review record is; default: the embedded engine in `dataDir`. */
  recordEngine?: RecordEngine;
  /** Every secret, bound to its destination (auth/destination.ts). */
  vault: SecretStore;
  media: MediaStore;
  files: FileService;
  /** Starts the embedded demo service; default: the demo server on 127.0.0.1, random port. */
  startDemo?: () => Promise<DemoHandle>;
  fetch?: typeof fetch;
  now?: () => number;
  log?: Logger;
  /**
   * A new embedded record on the demo environment starts with the demo's interviews in its queue (default true).
   * Integration tests of other things turn it off to start from an empty queue.
   */
  seedDemoQueue?: boolean;
}

export interface AppContextHandle {
  context: MainContext;
  /** URL of the embedded demo service once started. */
  demoUrl(): string | undefined;
  /** Removes what this run left in the temp dir (staged uploads, the demo server's recordings) and stops the demo server. */
  close(): Promise<void>;
}

export async function createAppContext(opts: AppContextOptions): Promise<AppContextHandle> {
  const log = opts.log ?? defaultLog;
  const now = opts.now ?? Date.now;
  // streamingFetch: Node's fetch buffers streamed request bodies whole; video import needs backpressure.
  const fetchImpl = opts.fetch ?? streamingFetch();
  const { store } = opts;
  // Uploads a run that ended without closing left in the temp folder.
  await removeLeftoverStaging().catch(() => 0);
  // On a team database, session tokens are shared sealed with the team key (set once the record is open).
  let sharedTokens: TokenSharing | undefined;
  const secrets = sharingVault(opts.vault, () => sharedTokens, log);
  // Bound late: the environments are built after the demo, which loads its credentials through this.
  let destinationOf = (envId: string) => serviceDestination({ id: envId, baseUrl: '', authUrl: '' });
  const vault = environmentVault(secrets, (envId) => destinationOf(envId));

  const clients = new Map<string, { signature: string; client: OmniClient }>();
  const forgetClient = (envId: string) => clients.delete(envId);
  const clientFor = (env: EnvironmentConfig): OmniClient => {
    const signature = JSON.stringify(env);
    const cached = clients.get(env.id);
    if (cached && cached.signature === signature) return cached.client;
    if (isPlainHttpToRemote(env.baseUrl) || isPlainHttpToRemote(env.authUrl)) throw insecureAddress();
    const client = new OmniClient({ env, vault: secrets, fetch: fetchImpl, now, logger: log });
    clients.set(env.id, { signature, client });
    return client;
  };

  const demo = embeddedDemo({
    start: opts.startDemo ?? (() => startDemoServer({ port: 0 })),
    vault,
    fetch: fetchImpl,
    log,
    onStop: () => forgetClient('demo'),
  });
  const environments = environmentService(store, demo, forgetClient);
  destinationOf = (envId) =>
    serviceDestination(environments.list().find((e) => e.id === envId) ?? { id: envId, baseUrl: '', authUrl: '' });
  const embedded: RecordEngine = { kind: 'embedded', dataDir: join(opts.dataDir, RECORD_FOLDER) };
  const teamDatabase = teamDatabaseSettings({ store, vault: opts.vault });
  // Secrets an earlier version stored by environment id alone are bound to where each points now, once.
  for (const env of environments.list()) await opts.vault.adoptUnbound(serviceDestination(env));
  await teamDatabase.adoptUnbound();
  const engine = opts.recordEngine ?? (await teamDatabase.engineToOpen(embedded.dataDir));
  const [{ record, startProblem }] = await Promise.all([
    openRecordOrEmbedded(engine, embedded, log),
    environments.activeId() === 'demo' ? demo.ensure() : undefined,
  ]);
  // PGlite creates its files 0666 less the umask: the record is private like the rest of the data folder.
  if (record.engine === 'embedded') makePrivateTree(embedded.dataDir);
  try {
    const legacy = await importLegacyFiles(record.db, opts.dataDir, store, log, now);
    opts.shell.setAside.push(...legacy.setAside);
  } catch (error) {
    await record.close();
    await demo.stop();
    throw error;
  }

  if (record.engine === 'team')
    sharedTokens = {
      records: new SharedTokenRecords(record.db),
      teamKey: teamDatabase.teamKey,
    };
  // Every notice of the record (anyone's claim, decision or queue change), numbered for the screens' long poll.
  const changes = new ChangeFeed();
  const stopHearing = await changes.follow(record.events, LISTEN_WAIT_MS);
  const onRecord = recordForApp(record, {
    environment: () => environments.activeId(),
    store,
    log,
    now,
    // Every screen reads again, so each shows the alarm at once.
    onTrailBroken: () => changes.push(RESYNC_NOTICE),
  });
  void onRecord.resume();
  const context: MainContext = {
    omni: () => clientFor(environments.active()),
    vault,
    secrets: opts.vault,
    environments,
    store,
    record: { ...onRecord.record, ...(startProblem ? { startProblem } : {}) },
    media: opts.media,
    files: opts.files,
    audit: onRecord.audit,
    credentials: credentialService({ vault: secrets, destinationOf, environments, clientFor, forgetClient }),
    shell: opts.shell,
    changes,
  };

  // A first run on the demo opens onto its interviews, once: the record is new only at its first start, so a user who
  // removes them does not get them back.
  if (record.isNew && environments.activeId() === 'demo' && opts.seedDemoQueue !== false)
    await seedDemoQueue(reviewService(context).demo, log);

  // The trail's anchors outside the database, on a team's (this computer's record has one user and nobody to hide from).
  const checkpoints = record.engine === 'team' ? checkpointsFor(context, onRecord.raise, log) : undefined;

  return {
    context,
    demoUrl: () => demo.url(),
    async close() {
      clients.clear();
      await captureState(context).staged.releaseAll();
      await demo.stop();
      stopHearing();
      changes.close();
      checkpoints?.stop();
      await onRecord.stop();
      await record.close();
      if (record.engine === 'embedded') makePrivateTree(embedded.dataDir);
    },
  };
}

/**
 * Opens the chosen record. A team database that cannot be reached at start does not stop the app: this run works on
 * this computer's record and says so (Settings, Team database), rather than showing nothing.
 */
async function openRecordOrEmbedded(
  engine: RecordEngine,
  embedded: RecordEngine,
  log: Logger,
): Promise<{ record: OpenRecord; startProblem?: { en: string; es: string } }> {
  if (engine.kind === 'embedded') return { record: await openRecord(engine) };
  try {
    return { record: await openRecord(engine) };
  } catch (error) {
    const problem = error instanceof ReviewError ? error : connectionFailed(error, engine.host);
    log.warn('The team database could not be opened at start; working on this computer’s record', {
      code: problem.data.code,
    });
    const { message, advice } = problem.data;
    const startProblem = advice ? { en: `${message.en} ${advice.en}`, es: `${message.es} ${advice.es}` } : message;
    return { record: await openRecord(embedded), startProblem };
  }
}

function insecureAddress(): ReviewError {
  return new ReviewError(
    'INSECURE_ADDRESS',
    {
      en: 'This environment’s address uses plain http to another machine, so the credentials would travel unencrypted.',
      es: 'La dirección de este ambiente usa http sin cifrar hacia otra máquina, así que las credenciales viajarían sin cifrar.',
    },
    {
      en: 'Change the base and authorization URLs in Settings to https://.',
      es: 'Cambia la URL base y la de autorización a https:// en Configuración.',
    },
  );
}

/** How often a running app looks whether a checkpoint is due (one is every 1,000 entries, and at least daily). */
const CHECKPOINT_LOOK_MS = 60_000;

/**
 * Checks the checkpoints on file once at start (a history re-chained since contradicts one: the trail alarm), then
 * takes one whenever it is due. A service that cannot stamp now is tried again at the next look.
 */
function checkpointsFor(context: MainContext, raise: (status: ChainStatus) => void, log: Logger) {
  const checkpoints = trailCheckpoints(context);
  void checkpoints
    .verify()
    .then((checks) => {
      const bad = checkpointAlarm(checks);
      if (bad) raise({ ok: false, brokenAt: bad.covers, rewritten: true });
      // Anyone's app may write a checkpoint entry: one whose token is junk is that writer's, not a rewritten history.
      for (const c of checks.filter((check) => check.outcome === 'forged'))
        log.warn('A checkpoint of the trail does not verify: its token is not the provider’s', {
          checkpoint: c.seq,
          by: c.by ?? 'unknown',
        });
    })
    .catch((error: unknown) => log.warn('The trail’s checkpoints could not be checked now', { reason: String(error) }));
  // One look at a time: a slow one (a stamp that waits for the chain's lock) is not joined by the next.
  let looking = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    void checkpoints
      .maybe()
      .catch((error: unknown) =>
        log.warn('A checkpoint of the trail could not be taken now', { reason: String(error) }),
      )
      .finally(() => (looking = false));
  }, CHECKPOINT_LOOK_MS);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
