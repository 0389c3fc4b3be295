import { z } from 'zod';
import { InterviewId } from './queue';
import { channel } from './define';
import type { Bilingual, Nom151Verification } from './nom151';
import type { AuditAction } from '../views';

/**
 * The regulator's file (issue 36): one self-verifying evidence file per interview, a batch of them for a period, and
 * the app's own check of such a file (the same steps as its VERIFY.txt). Files cross IPC as base64.
 */

export type EvidenceLanguage = 'en' | 'es';
const Language = z.enum(['en', 'es']);
/**
 * Why the file is exported: said in the file and in the audit entry that records the export. One line of text: a line
 * break in it had put a command of the writer's into VERIFY.txt, among those an auditor runs.
 */
const Purpose = z
  .string()
  .trim()
  .min(3)
  .max(500)
  .regex(/^[^\p{Cc}\p{Cf}]*$/u, 'Write the purpose on one line, without control or formatting characters');
/** A day, `YYYY-MM-DD`: a period runs from the first day's start to the end of the last day (UTC). */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export interface EvidenceSaved {
  fileName: string;
  savedTo?: string;
  downloadUrl?: string;
  manifestSha256: string;
}

/** One step of VERIFY.txt as the app ran it: what it checked, on which part, and how it came out. */
export interface EvidenceCheck {
  step:
    | 'container'
    | 'manifestToken'
    | 'manifest'
    | 'checkpointToken'
    | 'inclusion'
    | 'contractToken'
    | 'tokenSignature'
    /** The app's own check, beyond VERIFY.txt's: each checkpoint is one of the trail this app is connected to. */
    | 'trail'
    /** The app's own too: decisions.json and export.json say what the file's proved entries say. */
    | 'agreement';
  /** The part it checked (`report.pdf`, `trail/entries/12.txt`, …). */
  part: string;
  /** `notOnTrail`: intact, but not one of the checkpoints of the trail this app is connected to. */
  outcome: 'ok' | 'failed' | 'untrusted' | 'notOnTrail';
  /** Why it failed, in words; the RFC 3161 verifier's own finding (OpenSSL's words would differ) in `detail`. */
  message?: Bilingual;
  detail?: Bilingual;
}

export interface EvidenceVerification {
  /** Every check passed under a root this environment trusts. */
  valid: boolean;
  interviewId?: string;
  exportedAt?: string;
  exportedBy?: string;
  purpose?: string;
  /** When the provider stamped the manifest. */
  stampedAt?: string;
  /** The parts that failed a check, each once, in the file's order. */
  failedParts: string[];
  checks: EvidenceCheck[];
  /** Entries no statement proves (a checkpoint of an earlier version), as the file says. */
  unproved: number[];
  counts: { parts: number; entries: number; checkpoints: number; contracts: number };
  manifestToken?: Pick<Nom151Verification, 'valid' | 'details'>;
  /**
   * Changes of what the file records (notes, name, decisions, contracts) that the connected trail holds for the
   * interview after the export: the file is genuine, but no longer the record as it stands. Only for a file whose
   * checkpoints are this trail's.
   */
  laterChanges?: LaterChanges;
}

export interface LaterChanges {
  count: number;
  last: { action: AuditAction; at: string; seq: number };
}

export type EvidenceBatchState = 'running' | 'pausing' | 'paused' | 'cancelled' | 'done' | 'failed';

export interface EvidenceBatchView {
  jobId: string;
  state: EvidenceBatchState;
  from: string;
  to: string;
  /** Where the files and the index are written. */
  folder: string;
  /** Files written so far, and how many interviews the period holds (counted at the start). */
  done: number;
  total: number;
  /** Interviews whose file could not be written (the index says why). */
  failed: number;
  current?: string;
  error?: { message: Bilingual; advice?: Bilingual };
}

export const MAX_EVIDENCE_FILE_BYTES = 40 * 1024 * 1024;
const JobId = z.uuid();

export const evidence = {
  exportFile: channel<EvidenceSaved | null>()(
    z.object({ interviewId: InterviewId, language: Language, purpose: Purpose }).strict(),
  ),
  verifyFile: channel<EvidenceVerification>()(
    z
      .object({
        name: z.string().max(500),
        base64: z
          .string()
          .min(1)
          .max(Math.ceil((MAX_EVIDENCE_FILE_BYTES * 4) / 3) + 4)
          .regex(/^[A-Za-z0-9+/=\r\n]*$/, 'Must be base64'),
      })
      .strict(),
  ),
  batchStart: channel<EvidenceBatchView>()(
    z.object({ from: Day, to: Day, language: Language, purpose: Purpose }).strict(),
  ),
  batchStatus: channel<EvidenceBatchView>()(z.object({ jobId: JobId }).strict()),
  batchPause: channel<EvidenceBatchView>()(z.object({ jobId: JobId }).strict()),
  batchResume: channel<EvidenceBatchView>()(z.object({ jobId: JobId }).strict()),
  batchCancel: channel<EvidenceBatchView>()(z.object({ jobId: JobId }).strict()),
};
