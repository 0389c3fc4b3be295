import { z } from 'zod';
import type { ServiceAnswer } from '../views';
import { channel } from './define';

/**
 * NOM-151 signing: sign a string, seal a signed contract, verify evidence offline, save what was produced,
 * manage the environment's trusted provider roots. Files cross IPC as base64 (the web shell speaks JSON).
 */

export interface Bilingual {
  en: string;
  es: string;
}

export type Nom151FailureCode =
  | 'MALFORMED_EVIDENCE'
  | 'UNREADABLE_PDF'
  | 'PDF_TOO_COMPLEX'
  | 'NO_EVIDENCE_IN_PDF'
  | 'NO_DOCUMENT'
  | 'UNSUPPORTED_HASH'
  | 'BAD_SIGNATURE'
  | 'UNTRUSTED_CERTIFICATE'
  | 'NOT_A_TSA_CERTIFICATE'
  | 'EXPIRED_CERTIFICATE'
  | 'CHANGED_AFTER_SEALING'
  | 'SEALED_PAGES_DIFFER'
  | 'HASH_MISMATCH';

export type Nom151CheckId = 'imprint' | 'signature' | 'chain' | 'validity' | 'usage';
export type CheckOutcome = 'passed' | 'failed' | 'not-run';

export interface Nom151Failure {
  code: Nom151FailureCode;
  message: Bilingual;
  advice: Bilingual;
}

/** What the token says, for display. Present whenever the token could be read. */
export interface Nom151TokenDetails {
  /** The token's serial number in upper-case hex: the folio when the service gives none. */
  serial: string;
  genTime: string;
  policy: string;
  hashAlgorithm: string;
  /** The imprint the provider signed (hex). */
  imprintHex: string;
  /** Subject of the signing (provider) certificate. */
  provider: string;
  providerIssuer: string;
  providerNotBefore: string;
  providerNotAfter: string;
  /** Chain from provider to trusted root, subjects in order, when one was found. */
  chain: string[];
}

export interface Nom151Verification {
  valid: boolean;
  /** The most fundamental failure; absent when valid. */
  failure?: Nom151Failure;
  failures: Nom151Failure[];
  checks: Record<Nom151CheckId, CheckOutcome>;
  details?: Nom151TokenDetails;
  /** Hash of the document checked, with the token's algorithm (hex). */
  documentHashHex?: string;
  /** Where the token and the document came from. */
  source: {
    evidence: 'token' | 'timestamp-response' | 'sealed-pdf';
    /** `original-revision`: a sealed PDF in the standard layout, whose first bytes are the original document. */
    document: 'given' | 'embedded-original' | 'original-revision' | 'none';
  };
  /** Sealed PDF checked against the original it carries: whether the pages a reader sees are the sealed ones. */
  sealedPages?: 'match' | 'differ';
}

export type ArtifactKind = 'evidence' | 'signedDocument' | 'sealedPdf';

export interface SignStringView {
  /** Handle to save the evidence; valid while the app runs. */
  artifactId: string;
  /** The service's confirmation folio (`reference`). */
  folio: string;
  /** SHA-256 of the UTF-8 bytes that were signed (hex). */
  contentSha256: string;
  verification: Nom151Verification;
  available: Record<ArtifactKind, boolean>;
  /** The evidence and files in it are abbreviated: they are saved as files. */
  answer: ServiceAnswer;
}

export interface SealContractView {
  artifactId: string;
  signedContractId: string;
  /** Folio of the evidence (its serial); null when the evidence could not be read. */
  folio: string | null;
  /** Evidence checked against the signed document (given, or the original inside the sealed PDF). */
  verification: Nom151Verification;
  /** The sealed PDF checked on its own, as a third party would, when it was requested. */
  sealedPdfVerification?: Nom151Verification;
  available: Record<ArtifactKind, boolean>;
  answer: ServiceAnswer;
}

export interface TrustedRootView {
  subject: string;
  notAfter: string;
  /** SHA-256 of the certificate (hex, colon-free), to compare with what the provider publishes. */
  fingerprint: string;
}

export interface SavedFileView {
  /** Electron: where it was written. */
  savedTo?: string;
  /** Web shell: one-time URL the page follows to download. */
  downloadUrl?: string;
  fileName: string;
}

/** Largest file verify accepts; two of them stay under the web shell's 64 MiB request limit once in base64. */
/** The most characters a text to sign may have (the form checks a file against it before reading it whole). */
export const SIGN_TEXT_MAX = 1_000_000;
export const MAX_VERIFY_FILE_BYTES = 20 * 1024 * 1024;
const MAX_BASE64 = Math.ceil(MAX_VERIFY_FILE_BYTES / 3) * 4 + 64;
const base64 = z
  .string()
  .max(MAX_BASE64, 'File is larger than 20 MB')
  .regex(/^[A-Za-z0-9+/=\r\n]*$/, 'Must be base64');
const fileInput = z
  .object({ name: z.string().trim().min(1).max(255), base64: base64.min(1, 'File is empty') })
  .strict();

export const nom151 = {
  signString: channel<SignStringView>()(z.object({ text: z.string().min(1).max(SIGN_TEXT_MAX) }).strict()),
  sealContract: channel<SealContractView>()(
    z
      .object({
        signedContractId: z.string().trim().min(1).max(200),
        includeSignedDocument: z.boolean(),
        includeSealedPdf: z.boolean(),
      })
      .strict(),
  ),
  /** Evidence: `.tsr`/`.asn1` DER, base64 text, or a sealed PDF. Document: the file the evidence is for. */
  verify: channel<Nom151Verification>()(z.object({ evidence: fileInput, document: fileInput.optional() }).strict()),
  /** `null` when the user cancelled the save dialog. */
  saveArtifact: channel<SavedFileView | null>()(
    z.object({ artifactId: z.string().uuid(), kind: z.enum(['evidence', 'signedDocument', 'sealedPdf']) }).strict(),
  ),
  trustedRoots: channel<TrustedRootView[]>()(z.object({}).strict()),
  /** PEM (or base64 DER) of a provider's root CA certificate, trusted from now on for the active environment. */
  addTrustedRoot: channel<TrustedRootView[]>()(z.object({ pem: z.string().trim().min(1).max(100_000) }).strict()),
};
