import { z } from 'zod';
import { HttpUrl, openEnum, SessionStatus } from './common';

export const AddNotesBody = z.object({ notes: z.string().min(1).max(20_000) });
export const AddNameBody = z.object({ name: z.string().trim().min(1).max(300) });

export const ContractLinksResponse = z.looseObject({
  success: z.boolean(),
  sessionStatus: SessionStatus.optional(),
  /** Document id → temporary link; main fetches these, so only http(s). */
  additionalInformation: z.record(z.string(), HttpUrl).nullable().optional(),
});
export type ContractLinksResponse = z.infer<typeof ContractLinksResponse>;

export const RawCheckSeverity = z.enum(['low', 'medium', 'high']);
export type RawCheckSeverity = z.infer<typeof RawCheckSeverity>;

export const RawIdvCheckResult = z.looseObject({
  name: z.string(),
  severity: openEnum(RawCheckSeverity),
  version: z.string(),
  /** Raw value in [0, 1]; null when the check did not run. */
  result: z.number().min(0).max(1).nullable(),
});
export type RawIdvCheckResult = z.infer<typeof RawIdvCheckResult>;

export const FraudSeverity = z.enum(['LOW', 'MEDIUM', 'HIGH']);
export type FraudSeverity = z.infer<typeof FraudSeverity>;

/**
 * A severity an approval need not acknowledge (low or medium, in any case); any other is a finding: high, one newer than
 * the spec, one in another case. The decision's rule (main/review/decision.ts) and the screens that count findings.
 */
export const isQuietSeverity = (severity: string) => ['low', 'medium'].includes(severity.toLowerCase());

export const FraudRisk = z.looseObject({
  name: z.literal('checkFraudRisk'),
  severity: openEnum(FraudSeverity),
  version: z.string(),
  result: z.number(),
  responseText: z.string().optional(),
  responseCategory: z.string().optional(),
  topNFraudFeatures: z.array(z.string()).default([]),
  topNLegitFeatures: z.array(z.string()).default([]),
  topNFraudCodes: z.array(z.string()).default([]),
  topNLegitCodes: z.array(z.string()).default([]),
});
export type FraudRisk = z.infer<typeof FraudRisk>;

export const RawIdvResponse = z.looseObject({
  checkResults: z.array(RawIdvCheckResult),
  fraudRisk: FraudRisk.nullable(),
});
export type RawIdvResponse = z.infer<typeof RawIdvResponse>;

/** Entry shape not shown (decisions.md §9): any object; the UI knows a few common fields. */
export const CrossDocEntry = z.looseObject({
  match: z.boolean().optional(),
  status: z.string().optional(),
  score: z.number().optional(),
  values: z.record(z.string(), z.unknown()).optional(),
});
export const CrossDocResponse = z.record(z.string(), z.union([CrossDocEntry, z.unknown()]));
export type CrossDocResponse = z.infer<typeof CrossDocResponse>;
