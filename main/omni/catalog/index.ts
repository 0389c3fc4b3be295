import { AuthErrorName, FailReason } from '../../../common/omni';
import { authErrorCatalog } from './auth-errors';
import {
  curpGroupAdvice,
  curpProviderCatalog,
  curpProviderKey,
  curpRegistryCatalog,
  curpServiceUnavailable,
  twoDigits,
} from './curp';
import { faceStatusCatalog, isFaceStatusCode } from './face';
import { failReasonCatalog } from './fail-reason';
import { clientErrorCatalog, httpStatusEntry, type ClientErrorCode } from './generic';
import type { CatalogEntry, CurpGroup, Explanation } from './types';

export * from './types';
export * from './face';
export * from './fail-reason';
export * from './auth-errors';
export * from './curp';
export * from './generic';

/** What can be explained: a code the service returned, or an error the app raised itself. */
export type ExplainRef =
  | { faceStatus: number }
  | { failReason: string }
  | { authError: string }
  /** The CURP failure: the response (200 or 400 body) with `error`, `result`, `renapo_valid`. */
  | { curp: unknown }
  | { httpStatus: number }
  | { client: ClientErrorCode };

const withCode = (code: string, entry: CatalogEntry, group?: CurpGroup): Explanation =>
  group === undefined ? { code, ...entry } : { code, group, ...entry };

/**
 * Catalog lookup: what the code means and the advised next step, in English and Spanish.
 * Returns undefined when the reference names no known code (the caller falls back to the HTTP status).
 */
export function explain(ref: ExplainRef): Explanation | undefined {
  if ('faceStatus' in ref)
    return isFaceStatusCode(ref.faceStatus)
      ? withCode(String(ref.faceStatus), faceStatusCatalog[ref.faceStatus])
      : undefined;
  if ('failReason' in ref) {
    const parsed = FailReason.safeParse(ref.failReason);
    return parsed.success ? withCode(parsed.data, failReasonCatalog[parsed.data]) : undefined;
  }
  if ('authError' in ref) {
    const parsed = AuthErrorName.safeParse(ref.authError);
    return parsed.success ? withCode(parsed.data, authErrorCatalog[parsed.data]) : undefined;
  }
  if ('curp' in ref) return explainCurp(ref.curp);
  if ('httpStatus' in ref) return withCode(`HTTP_${ref.httpStatus}`, httpStatusEntry(ref.httpStatus));
  return withCode(ref.client, clientErrorCatalog[ref.client]);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A CURP failure body: provider failure (`codigoRespuesta`) or registry failure (`tipoError`, `codigoError`). */
export function explainCurp(body: unknown): Explanation | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  const error = body.error;
  const tipo = twoDigits(error.tipoError);
  const codigo = twoDigits(error.codigoError);
  if (tipo && codigo) {
    const code = `${tipo}-${codigo}`;
    if (code === '99-01' && saysUnavailable(error.message) && saysUnavailable(body.result))
      return withCode('CURP_SERVICE_UNAVAILABLE', curpServiceUnavailable, 2);
    const entry = curpRegistryCatalog[code];
    if (entry) return withCode(code, entry, entry.group);
    const group = groupOfUnlisted(tipo);
    return {
      code,
      group,
      en: `RENAPO reported error ${code}.`,
      es: `RENAPO reportó el error ${code}.`,
      ...curpGroupAdvice[group],
      retryable: group === 2,
    };
  }
  const respuesta = twoDigits(error.codigoRespuesta);
  if (respuesta) {
    const key = curpProviderKey(
      respuesta,
      typeof error.descripcionRespuesta === 'string' ? error.descripcionRespuesta : undefined,
    );
    if (key) return withCode(key, curpProviderCatalog[key]);
  }
  return undefined;
}

/**
 * (99, 01) is both a registry connection error and, with the text saying so in `message` and `result`, the
 * "no connection to the provider at all" case; only the text tells them apart.
 */
function saysUnavailable(text: unknown): boolean {
  return typeof text === 'string' && /no est[aá] disponible|no disponible|unavailable|not available/i.test(text);
}

/** Pairs the spec does not list: connection-type families count as transient, the rest as internal. */
function groupOfUnlisted(tipo: string): CurpGroup {
  return tipo === '02' || tipo === '04' || tipo === '99' ? 2 : 3;
}
