import pg from 'pg';
import type { TeamDatabaseInput, TeamDatabaseTestView, TeamDatabaseView } from '../../common/ipc/settings';
import type { RecordEngineKind } from '../../common/ipc/settings';
import { databaseDestination, localDestination } from '../auth/destination';
import type { SecretStore } from '../auth/vault';
import { teamKeyBytes } from '../../common/ipc/settings';
import { ReviewError } from '../errors';
import type { JsonStore } from '../json-store';
import { teamConnection, type RecordEngine } from '../record/engines';

/** Settings keys: the team database's address, and where the next start keeps the record. */
const CONFIG_KEY = 'record.teamDatabase';
const CHOICE_KEY = 'record.engine';
/**
 * The vault keeps the password in the `secret` slot of a scope of its own, bound to the host, port, database, user,
 * TLS mode and CA it was entered for: saved for any other, it is not found, so it is never sent there.
 */
export const TEAM_DATABASE_VAULT_ID = 'team-database';
/** The team key (shared-session-tokens.ts) in a pseudo-environment of its own, its `secret` slot. */
export const TEAM_KEY_VAULT_ID = 'team-key';
/** The oldest PostgreSQL the schema is written for. */
const MIN_SERVER_VERSION = 140000;

export interface TeamDatabaseDeps {
  store: JsonStore;
  vault: SecretStore;
}

/** Where the team password may go: exactly the saved address, login, TLS mode and CA. */
export const passwordDestination = (team: TeamDatabaseInput) => databaseDestination(TEAM_DATABASE_VAULT_ID, team);
/** The team key never leaves this computer: it seals and opens, it is not sent. */
export const TEAM_KEY_DESTINATION = localDestination(TEAM_KEY_VAULT_ID);

export function teamDatabaseSettings({ store, vault }: TeamDatabaseDeps) {
  const config = () => store.get<TeamDatabaseInput>(CONFIG_KEY);
  const chosen = (): RecordEngineKind => (store.get<RecordEngineKind>(CHOICE_KEY) === 'team' ? 'team' : 'embedded');
  const passwordFor = (team: TeamDatabaseInput | undefined) =>
    team ? vault.getCredential(passwordDestination(team), 'secret') : Promise.resolve(undefined);
  const password = () => passwordFor(config());
  const teamKey = () => vault.getCredential(TEAM_KEY_DESTINATION, 'secret');

  /** The engine a start with these settings uses: the team's server once it is chosen and its address saved. */
  async function engineToOpen(dataDir: string): Promise<RecordEngine> {
    const team = config();
    if (chosen() !== 'team' || !team) return { kind: 'embedded', dataDir };
    return { kind: 'team', ...team, password: await passwordFor(team) };
  }

  async function view(inUse: RecordEngineKind, startProblem?: { en: string; es: string }): Promise<TeamDatabaseView> {
    const team = config();
    const { ca, ...shown } = team ?? ({} as Partial<TeamDatabaseInput>);
    return {
      inUse,
      chosen: chosen(),
      ...(team ? { config: { ...(shown as Omit<TeamDatabaseInput, 'ca'>), caSet: Boolean(ca) } } : {}),
      passwordSet: (await password()) !== undefined,
      teamKeySet: teamKeyBytes((await teamKey()) ?? '') !== undefined,
      ...(startProblem ? { startProblem } : {}),
    };
  }

  return {
    engineToOpen,
    view,
    teamKey,
    /**
     * Saves the address. The password is bound to it: one saved for another address, login, TLS mode or CA is
     * dropped, and `passwordCleared` says so (then it must be typed again). `removeCa` forgets the saved CA.
     */
    async save(
      next: TeamDatabaseInput,
      newPassword?: string,
      newTeamKey?: string,
      opts: { removeCa?: boolean } = {},
    ): Promise<{ passwordCleared: boolean }> {
      if (newTeamKey !== undefined && !teamKeyBytes(newTeamKey)) throw weakTeamKey();
      // An empty CA field keeps the one saved before; the form never receives it back.
      const kept = opts.removeCa ? undefined : config()?.ca;
      const ca = next.ca === '' || next.ca === undefined ? kept : next.ca;
      const saved: TeamDatabaseInput = { ...next, ...(ca ? { ca } : { ca: undefined }) };
      store.set(CONFIG_KEY, saved);
      const to = passwordDestination(saved);
      if (newPassword !== undefined) await vault.setCredential(to, 'secret', newPassword);
      const { credentials } = await vault.forgetAllBut(to);
      if (newTeamKey !== undefined) await vault.setCredential(TEAM_KEY_DESTINATION, 'secret', newTeamKey);
      // Typed again in the same save, nothing is missing: only a password left behind is worth saying.
      return { passwordCleared: credentials > 0 && newPassword === undefined };
    },
    /** At start: a password an earlier version saved unbound is bound to the address it was saved with. */
    async adoptUnbound() {
      const team = config();
      if (team) await vault.adoptUnbound(passwordDestination(team));
      await vault.adoptUnbound(TEAM_KEY_DESTINATION);
    },
    choose(engine: RecordEngineKind) {
      if (engine === 'team' && !config()) throw noTeamDatabase();
      store.set(CHOICE_KEY, engine);
    },
    async test(): Promise<TeamDatabaseTestView> {
      const team = config();
      if (!team) throw noTeamDatabase();
      const { connection } = teamConnection({ ...team, password: await passwordFor(team) });
      const client = new pg.Client(connection);
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows } = await client.query<{ user: string; version: string; num: string }>(
          "select current_user as user, current_setting('server_version') as version, current_setting('server_version_num') as num",
        );
        const row = rows[0]!;
        if (Number(row.num) < MIN_SERVER_VERSION) throw serverTooOld(row.version);
        return { user: row.user, serverVersion: row.version };
      } catch (error) {
        throw error instanceof ReviewError ? error : connectionFailed(error, team.host);
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

/** What went wrong reaching the team database, in the analyst's words; the driver's own words in small print. */
export function connectionFailed(error: unknown, host: string): ReviewError {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const reason = message ?? String(error);
  const [en, es, adviceEn, adviceEs] =
    code === '28P01' || code === '28000'
      ? [
          'The team database refused the user name or password.',
          'La base de datos del equipo rechazó el usuario o la contraseña.',
          'Check both with the database administrator, then save them again.',
          'Revisa ambos con el administrador de la base de datos y vuelve a guardarlos.',
        ]
      : code === '3D000'
        ? [
            'The team database server has no database by that name.',
            'El servidor de la base de datos del equipo no tiene una base de datos con ese nombre.',
            'Check the database name with the administrator.',
            'Revisa el nombre de la base de datos con el administrador.',
          ]
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? [
              `The host ${host} could not be found.`,
              `No se encontró el host ${host}.`,
              'Check the host name and the network connection.',
              'Revisa el nombre del host y la conexión de red.',
            ]
          : code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH'
            ? [
                `Nothing answered at ${host} on that port.`,
                `Nada respondió en ${host} en ese puerto.`,
                'Check the host and port, and that the server is running and reachable from here (VPN, firewall).',
                'Revisa el host y el puerto, y que el servidor esté encendido y se pueda alcanzar desde aquí (VPN, firewall).',
              ]
            : /certificate|self.signed|SSL|TLS/i.test(reason)
              ? [
                  'The team database’s certificate could not be verified, so nothing was sent.',
                  'No se pudo verificar el certificado de la base de datos del equipo, así que no se envió nada.',
                  'Paste the certificate of the CA that signed it, or ask the administrator for one the system trusts.',
                  'Pega el certificado de la CA que lo firmó, o pide al administrador uno en el que confíe el sistema.',
                ]
              : [
                  'The team database could not be reached.',
                  'No se pudo conectar con la base de datos del equipo.',
                  'Check the address, then try again.',
                  'Revisa la dirección y vuelve a intentarlo.',
                ];
  return new ReviewError(
    'TEAM_DATABASE_UNREACHABLE',
    { en, es },
    { en: adviceEn, es: adviceEs },
    { retryable: true, details: { serviceMessage: reason } },
  );
}

function weakTeamKey(): ReviewError {
  return new ReviewError(
    'TEAM_KEY_WEAK',
    {
      en: 'A team key must be a generated 32-byte key; this one is not.',
      es: 'La clave del equipo debe ser una clave generada de 32 bytes; esta no lo es.',
    },
    {
      en: 'Ask the admin for the key `openssl rand -base64 32` printed (44 characters) and paste it as it is.',
      es: 'Pide al administrador la clave que imprimió `openssl rand -base64 32` (44 caracteres) y pégala tal cual.',
    },
  );
}

function noTeamDatabase(): ReviewError {
  return new ReviewError(
    'TEAM_DATABASE_NOT_SET',
    { en: 'No team database is set up yet.', es: 'Todavía no hay una base de datos del equipo configurada.' },
    { en: 'Fill in its address and save it first.', es: 'Primero escribe su dirección y guárdala.' },
  );
}

function serverTooOld(version: string): ReviewError {
  return new ReviewError(
    'TEAM_DATABASE_TOO_OLD',
    {
      en: `The team database runs PostgreSQL ${version}; Omni Reviewer needs 14 or newer.`,
      es: `La base de datos del equipo usa PostgreSQL ${version}; Omni Reviewer necesita la 14 o más nueva.`,
    },
    { en: 'Ask the administrator to upgrade the server.', es: 'Pide al administrador que actualice el servidor.' },
  );
}
