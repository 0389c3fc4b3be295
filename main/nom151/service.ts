import { redactText } from '../log';
import { demoRoutes } from '../demo-client';
import { randomUUID } from 'node:crypto';
import type {
  ArtifactKind,
  Nom151Verification,
  SavedFileView,
  SealContractView,
  SignStringView,
  TrustedRootView,
} from '../../common/ipc/nom151';
import type { MainContext } from '../ports';
import { ReviewError } from '../errors';
import { serviceAnswer } from '../omni/answer';
import { sha256, toHex } from './asn1';
import { unwrapTimeStampResp } from './pdf';
import { describeRoot, normalizeRootCertificate } from './roots';
import { tokenToTimeStampResp } from './tsa';
import { decodeEvidenceText } from './verify';
import { verifyEvidence } from './verifier';

/**
 * The app side of NOM-151: calls the service, verifies what it returns offline against the environment's trusted
 * roots, keeps the produced files in memory until the user saves them, and records every act in the audit trail.
 */

interface Artifact {
  baseName: string;
  files: Partial<Record<ArtifactKind, { data: Uint8Array; fileName: string; mimeType: string }>>;
}

/** Produced files wait here (not in the renderer: a sealed PDF can be megabytes) until saved or evicted. */
const MAX_ARTIFACTS = 20;
const artifactsByContext = new WeakMap<MainContext, Map<string, Artifact>>();

function artifacts(ctx: MainContext): Map<string, Artifact> {
  let map = artifactsByContext.get(ctx);
  if (!map) artifactsByContext.set(ctx, (map = new Map()));
  return map;
}

function keep(ctx: MainContext, artifact: Artifact): string {
  const map = artifacts(ctx);
  const id = randomUUID();
  map.set(id, artifact);
  while (map.size > MAX_ARTIFACTS) map.delete(map.keys().next().value as string);
  return id;
}

const available = (a: Artifact): Record<ArtifactKind, boolean> => ({
  evidence: !!a.files.evidence,
  signedDocument: !!a.files.signedDocument,
  sealedPdf: !!a.files.sealedPdf,
});

/** The evidence as a `.tsr` (TimeStampResp, what `openssl ts -verify -in` reads); raw bytes if it is not a token. */
function evidenceFile(
  evidenceText: string,
  baseName: string,
): { data: Uint8Array; fileName: string; mimeType: string } {
  const der = unwrapTimeStampResp(decodeEvidenceText(new TextEncoder().encode(evidenceText)));
  try {
    return { data: tokenToTimeStampResp(der), fileName: `${baseName}.tsr`, mimeType: 'application/timestamp-reply' };
  } catch {
    return { data: der, fileName: `${baseName}.der`, mimeType: 'application/octet-stream' };
  }
}

function safeFilePart(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'documento';
}

const failureCode = (v: Nom151Verification) => v.failure?.code ?? null;

/**
 * The embedded demo server generates its provider chain at start-up and publishes the root at
 * `/__demo/nom151-root.pem`; in the demo environment that root is trusted alongside any imported one.
 * Fetched once per demo server address.
 */
const demoRoots = new Map<string, Promise<string | null>>();

function demoRoot(baseUrl: string): Promise<string | null> {
  let pending = demoRoots.get(baseUrl);
  if (!pending) {
    pending = demoRoutes(baseUrl)
      .nom151Root()
      .then((pem) => (pem === null ? null : normalizeRootCertificate(pem)))
      .catch(() => null);
    demoRoots.set(baseUrl, pending);
    // A failed fetch is not remembered: the demo server may still be starting.
    void pending.then((pem) => pem ?? demoRoots.delete(baseUrl));
  }
  return pending;
}

export function nom151Service(ctx: MainContext) {
  async function trustedRootsPem(): Promise<string[]> {
    const env = ctx.environments.active();
    const stored = await ctx.environments.trustedNom151Roots(env.id);
    const demo = env.kind === 'demo' && env.baseUrl ? await demoRoot(env.baseUrl) : null;
    return demo && !stored.includes(demo) ? [demo, ...stored] : stored;
  }

  async function trustedRoots(): Promise<TrustedRootView[]> {
    const views = await Promise.all((await trustedRootsPem()).map(describeRoot));
    return views.filter((v): v is TrustedRootView => v !== null);
  }

  /** Whether a token timestamps exactly this statement, under a root this environment trusts. */
  async function verifyStamp(token: string, statement: string): Promise<Nom151Verification> {
    return verifyEvidence({
      evidence: new TextEncoder().encode(token),
      document: new TextEncoder().encode(statement),
      trustedRootsPem: await trustedRootsPem(),
    });
  }

  return {
    verifyStamp,
    /** The roots this environment trusts (PEM): an evidence file carries them, and is checked against them. */
    trustedRootsPem,
    /** Whether a token timestamps exactly these bytes, under a root this environment trusts. */
    async verifyBytes(token: Uint8Array, document: Uint8Array): Promise<Nom151Verification> {
      return verifyEvidence({ evidence: token, document, trustedRootsPem: await trustedRootsPem() });
    },
    /**
     * A statement timestamped by the service's NOM-151 signing, for the audit trail's checkpoints: the token (base64
     * DER), its folio and what verifying it with the trusted roots (`roots`) concluded. Recorded by the caller.
     */
    async stamp(statement: string) {
      const response = await ctx.omni().call('signStringNom151', { body: { stringToSign: statement } });
      const roots = await trustedRootsPem();
      const verification = await verifyEvidence({
        evidence: new TextEncoder().encode(response.signedString),
        document: new TextEncoder().encode(statement),
        trustedRootsPem: roots,
      });
      return { token: response.signedString, folio: redactText(response.reference), verification, roots };
    },

    async signString(text: string): Promise<SignStringView> {
      const answered = await ctx.omni().call('signStringNom151', { body: { stringToSign: text } });
      // The folio names files and goes on the trail: one that echoes a held secret is kept redacted (red team 18).
      const response = { ...answered, reference: redactText(answered.reference) };
      const content = new TextEncoder().encode(text);
      const contentSha256 = toHex(await sha256(content));
      const verification = await verifyEvidence({
        evidence: new TextEncoder().encode(response.signedString),
        document: content,
        trustedRootsPem: await trustedRootsPem(),
      });
      const artifact: Artifact = { baseName: `constancia-nom151-${safeFilePart(response.reference)}`, files: {} };
      artifact.files.evidence = evidenceFile(response.signedString, artifact.baseName);
      const artifactId = keep(ctx, artifact);
      await ctx.audit.append({
        action: 'signed',
        detail: {
          kind: 'string',
          folio: response.reference,
          sha256: contentSha256,
          bytes: content.byteLength,
          valid: verification.valid,
          failure: failureCode(verification),
        },
      });
      return {
        artifactId,
        folio: response.reference,
        contentSha256,
        verification,
        available: available(artifact),
        answer: serviceAnswer('signStringNom151', response),
      };
    },

    async sealContract(input: {
      signedContractId: string;
      includeSignedDocument: boolean;
      includeSealedPdf: boolean;
    }): Promise<SealContractView> {
      const response = await ctx.omni().call('calculateContractNom151', {
        body: {
          signedContractId: input.signedContractId,
          includeSignedDocumentInResponse: input.includeSignedDocument,
          includeCertificateDetailsInResponse: input.includeSealedPdf,
        },
      });
      const info = response.additionalInformation ?? {};
      if (!response.success || !info.signedDocumentNom151) {
        throw new ReviewError(
          'NOM151_NOT_SEALED',
          {
            en: `The service did not seal contract "${input.signedContractId}": it answered without evidence.`,
            es: `El servicio no selló el contrato "${input.signedContractId}": respondió sin constancia.`,
          },
          {
            en: 'Check that the contract id is of a signed contract and try again.',
            es: 'Verifica que el id corresponda a un contrato firmado e inténtalo de nuevo.',
          },
          { retryable: true },
        );
      }
      const roots = await trustedRootsPem();
      const signedDocument = info.signedDocumentBase64
        ? new Uint8Array(Buffer.from(info.signedDocumentBase64, 'base64'))
        : undefined;
      const sealedPdf = info.signedDocumentWithNomSignatureBase64
        ? new Uint8Array(Buffer.from(info.signedDocumentWithNomSignatureBase64, 'base64'))
        : undefined;
      const evidence = new TextEncoder().encode(info.signedDocumentNom151);
      // The evidence is over the signed contract: check it against the document the service returned; with only the
      // sealed PDF, against the original the PDF carries.
      const verification = signedDocument
        ? await verifyEvidence({ evidence, document: signedDocument, trustedRootsPem: roots })
        : sealedPdf
          ? await verifyEvidence({ evidence: sealedPdf, trustedRootsPem: roots })
          : await verifyEvidence({ evidence, trustedRootsPem: roots });
      const sealedPdfVerification = sealedPdf
        ? await verifyEvidence({ evidence: sealedPdf, trustedRootsPem: roots })
        : undefined;

      const baseName = `contrato-${safeFilePart(input.signedContractId)}`;
      const artifact: Artifact = { baseName, files: {} };
      artifact.files.evidence = evidenceFile(info.signedDocumentNom151, `${baseName}-constancia-nom151`);
      if (signedDocument)
        artifact.files.signedDocument = {
          data: signedDocument,
          fileName: `${baseName}.pdf`,
          mimeType: 'application/pdf',
        };
      if (sealedPdf)
        artifact.files.sealedPdf = {
          data: sealedPdf,
          fileName: `${baseName}-sellado-nom151.pdf`,
          mimeType: 'application/pdf',
        };
      const artifactId = keep(ctx, artifact);
      const folio = verification.details?.serial ?? null;
      await ctx.audit.append({
        action: 'signed',
        detail: {
          kind: 'contract',
          signedContractId: input.signedContractId,
          folio,
          sha256: verification.documentHashHex ?? null,
          valid: verification.valid,
          failure: failureCode(verification),
          ...(sealedPdfVerification ? { sealedPdfValid: sealedPdfVerification.valid } : {}),
        },
      });
      return {
        artifactId,
        signedContractId: input.signedContractId,
        folio,
        verification,
        ...(sealedPdfVerification ? { sealedPdfVerification } : {}),
        available: available(artifact),
        answer: serviceAnswer('calculateContractNom151', response),
      };
    },

    async verify(input: {
      evidence: { name: string; base64: string };
      document?: { name: string; base64: string };
    }): Promise<Nom151Verification> {
      const evidence = new Uint8Array(Buffer.from(input.evidence.base64, 'base64'));
      const document = input.document ? new Uint8Array(Buffer.from(input.document.base64, 'base64')) : undefined;
      const verification = await verifyEvidence({
        evidence,
        ...(document ? { document } : {}),
        trustedRootsPem: await trustedRootsPem(),
      });
      await ctx.audit.append({
        action: 'verified',
        detail: {
          evidenceName: input.evidence.name,
          documentName: input.document?.name ?? null,
          folio: verification.details?.serial ?? null,
          sha256: verification.documentHashHex ?? null,
          valid: verification.valid,
          failures: verification.failures.map((f) => f.code),
        },
      });
      return verification;
    },

    async saveArtifact(artifactId: string, kind: ArtifactKind): Promise<SavedFileView | null> {
      const file = artifacts(ctx).get(artifactId)?.files[kind];
      if (!file) {
        throw new ReviewError(
          'NOM151_ARTIFACT_GONE',
          { en: 'That file is no longer available to save.', es: 'Ese archivo ya no está disponible para guardar.' },
          {
            en: 'Seal or sign again to produce it; files are kept only while the app runs.',
            es: 'Vuelve a sellar o firmar para generarlo; los archivos se conservan solo mientras la aplicación está abierta.',
          },
        );
      }
      const saved = await ctx.files.save({ suggestedName: file.fileName, data: file.data, mimeType: file.mimeType });
      if (!saved) return null;
      await ctx.audit.append({
        action: 'downloaded',
        detail: { nom151: kind, fileName: file.fileName, sha256: toHex(await sha256(file.data)) },
      });
      return { ...saved, fileName: file.fileName };
    },

    trustedRoots,

    async addTrustedRoot(input: string): Promise<TrustedRootView[]> {
      const pem = normalizeRootCertificate(input);
      if (!pem) {
        throw new ReviewError(
          'NOM151_INVALID_ROOT',
          {
            en: 'That is not a CA certificate, so it cannot be trusted as a provider root.',
            es: 'Eso no es un certificado de CA, así que no puede confiarse como raíz de un proveedor.',
          },
          {
            en: "Paste the provider's root certificate in PEM (-----BEGIN CERTIFICATE-----), as the provider publishes it.",
            es: 'Pega el certificado raíz del proveedor en PEM (-----BEGIN CERTIFICATE-----), tal como lo publica el proveedor.',
          },
        );
      }
      const env = ctx.environments.active();
      const alreadyTrusted = (await ctx.environments.trustedNom151Roots(env.id)).includes(pem);
      await ctx.environments.addTrustedNom151Root(env.id, pem);
      const added = await describeRoot(pem);
      // Who is trusted changes what every later verification concludes, so it is audited: the subject and fingerprint
      // identify the certificate; the certificate itself stays out of the trail.
      if (!alreadyTrusted && added)
        await ctx.audit.append({
          action: 'trustedRootAdded',
          detail: { subject: added.subject, sha256: added.fingerprint },
        });
      return trustedRoots();
    },
  };
}
