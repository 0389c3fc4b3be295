import { userInfo } from 'node:os';
import type { MainContext } from '../ports';

/** The OS account running this app; undefined where the system has none (a container without a passwd entry). */
export function osAccount(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** The embedded engine's one database user: a login no person has, never shown. */
const EMBEDDED_LOGIN = 'postgres';

/**
 * One identity on every screen, note and report: on a team database each person is their login; on this computer's
 * record the database's one user stands for the OS account, so nobody reads "postgres" where they mean themselves.
 */
export function personOf(ctx: Pick<MainContext, 'record'>): (login: string) => string {
  if (ctx.record.engine !== 'embedded') return (login) => login;
  const me = osAccount() ?? 'this computer';
  return (login) => (login === EMBEDDED_LOGIN ? me : login);
}

/** The login behind a name a person typed (a search by reviewer): the reverse of `personOf`. */
export function loginOf(ctx: Pick<MainContext, 'record'>, name: string): string {
  return ctx.record.engine === 'embedded' && name === personOf(ctx)(EMBEDDED_LOGIN) ? EMBEDDED_LOGIN : name;
}
