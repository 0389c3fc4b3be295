import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { Timestamp } from '../../common/omni';
import { endpoints, type EndpointName } from '../omni/endpoints';

/**
 * How the demo service answers. `spec`: exactly the spec's shapes. `production-like`: the ways a production
 * (Java) service answers that the spec does not forbid and a client must read: null for every absent optional
 * field, epoch-millisecond times, page-wrapped lists, enum values newer than the spec, gzip on every answer,
 * gateway HTML pages for 502/503/504, ISO error timestamps, no contract links for a deleted session, sealed PDFs
 * in the standard incremental layout, and fields the spec does not list on every answer (`BEYOND_SPEC`).
 */
export const DemoProfile = z.enum(['spec', 'production-like']);
export type DemoProfile = z.infer<typeof DemoProfile>;

/** `OMNI_DEMO_PROFILE` picks the profile of a demo server started without one (the app's embedded server). */
export function profileFromEnv(value = process.env.OMNI_DEMO_PROFILE): DemoProfile {
  const parsed = DemoProfile.safeParse(value);
  return parsed.success ? parsed.data : 'spec';
}

/** A check the spec's severities (low, medium, high) cannot name: production added 'critical'. */
export const CHECK_BEYOND_SPEC = { name: 'deepfakeVideoCheck', severity: 'critical', version: '2026.2', result: 0.07 };
/** Production reports spoof attempts under a newer error name than the spec's. */
export const AUTH_ERROR_BEYOND_SPEC = { from: 'SPOOF_ATTEMPT_DETECTED', to: 'DEEPFAKE_DETECTED' };

/**
 * Fields a production service adds that the spec does not list: a trace id on every answer object, the model behind
 * each check and the fraud-risk region, the comparing engine inside each cross-document entry (its top level is any
 * field name, so an extra there would read as one more field), and who created each API key.
 */
export const BEYOND_SPEC = {
  checkEngine: 'idv-core-7.4',
  riskModelRegion: 'mx-central-2',
  comparedBy: 'xdoc-3.1',
  createdBy: 'admin@demo.mx',
} as const;

function addBeyondSpec(name: EndpointName, shaped: unknown): void {
  if (Array.isArray(shaped)) {
    for (const item of shaped) if (isRecord(item)) item.createdBy = BEYOND_SPEC.createdBy;
    return;
  }
  if (!isRecord(shaped)) return;
  if (name === 'getCrossDocResults') {
    for (const entry of Object.values(shaped)) if (isRecord(entry)) entry.comparedBy = BEYOND_SPEC.comparedBy;
    return;
  }
  shaped.traceId = randomUUID();
  if (name === 'getRawIdvResults') {
    if (Array.isArray(shaped.checkResults))
      for (const check of shaped.checkResults) if (isRecord(check)) check.engine = BEYOND_SPEC.checkEngine;
    if (isRecord(shaped.fraudRisk)) shaped.fraudRisk.riskModelRegion = BEYOND_SPEC.riskModelRegion;
  }
}

/** Reshapes one endpoint's answer the way a production service sends it. */
export function productionAnswer(name: EndpointName, answer: unknown): unknown {
  const schema = endpoints[name].response as z.ZodType;
  let shaped = productionShape(schema, structuredClone(answer));
  if (name === 'getRawIdvResults' && isRecord(shaped) && Array.isArray(shaped.checkResults))
    shaped.checkResults.push({ ...CHECK_BEYOND_SPEC });
  // Production gives no contract links for a deleted session, only its status.
  if (name === 'getContractLinks' && isRecord(shaped) && shaped.sessionStatus === 'Deleted')
    shaped = { success: false, sessionStatus: 'Deleted', additionalInformation: null };
  addBeyondSpec(name, shaped);
  if (name === 'authenticateFace' && isRecord(shaped) && isRecord(shaped.error))
    if (shaped.error.name === AUTH_ERROR_BEYOND_SPEC.from) shaped.error.name = AUTH_ERROR_BEYOND_SPEC.to;
  if (schema instanceof z.ZodArray && Array.isArray(shaped)) {
    const content = shaped;
    shaped = { content, totalElements: content.length, totalPages: 1, number: 0, size: content.length, last: true };
  }
  return shaped;
}

/**
 * Absent optional fields and empty optional lists become null, `Timestamp` fields epoch milliseconds, following the
 * contract's shape.
 */
function productionShape(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema);
  if (inner === Timestamp && typeof value === 'string') {
    const at = Date.parse(value);
    return Number.isNaN(at) ? value : at;
  }
  if (inner instanceof z.ZodArray && Array.isArray(value))
    return value.map((item) => productionShape(inner.element as z.ZodType, item));
  if (inner instanceof z.ZodObject && isRecord(value)) {
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const optional = field.safeParse(undefined).success;
      // Java services send null for an absent field and, often, for an empty optional list.
      if (value[key] === undefined || (optional && Array.isArray(value[key]) && value[key].length === 0)) {
        if (optional) value[key] = null;
      } else value[key] = productionShape(field, value[key]);
    }
  }
  return value;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (let i = 0; i < 8; i++) {
    if (at instanceof z.ZodOptional || at instanceof z.ZodNullable) at = at.unwrap() as z.ZodType;
    else if (at instanceof z.ZodDefault) at = at.def.innerType as z.ZodType;
    else break;
  }
  return at;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a gateway in front of the service answers when the service is down or slow: a web page, not the error body. */
export function gatewayPage(status: number): string {
  const title = status === 504 ? 'Gateway Timeout' : status === 503 ? 'Service Unavailable' : 'Bad Gateway';
  return `<!DOCTYPE html>
<html><head><title>${status} ${title}</title></head>
<body><h1>${status} ${title}</h1><p>The upstream server did not answer in time. Please try again later.</p>
<hr><center>nginx</center></body></html>
`;
}

/** A captive portal's or single-sign-on proxy's login page, answered with 200 in place of the service. */
export const LOGIN_PAGE = `<!DOCTYPE html>
<html><head><title>Corporate network sign-in</title></head>
<body><h1>Sign in to continue</h1><p>Your session with the corporate proxy has expired. Enter your network credentials.</p>
<form method="post" action="/login"><input name="user"><input name="password" type="password"></form></body></html>
`;

/** Gzip for a body the client accepts it for; undefined when it should go as it is. */
export function gzipBody(payload: unknown, acceptEncoding: string | undefined): Buffer | undefined {
  if (!acceptEncoding || !/\bgzip\b/i.test(acceptEncoding)) return undefined;
  if (typeof payload === 'string') return gzipSync(Buffer.from(payload));
  if (payload instanceof Uint8Array) return gzipSync(payload);
  return undefined;
}
