import type { EvidenceSaved, EvidenceVerification } from '../../common/ipc/evidence';
import type { AuditAction } from '../../common/views';
import type { MainContext } from '../ports';
import { ReviewError } from '../errors';
import { plainText } from '../plain-text';
import { errorData } from '../review/errors';
import { nom151Service } from '../nom151/service';
import { detailOf, statementOf, trailCheckpoints } from '../trail/checkpoints';
import {
  buildEvidenceFile,
  exporterName,
  recordExport,
  recordManifest,
  recordNotWritten,
  StatementCache,
  tokenDer,
  type ExportRequest,
} from './file';
import { evidenceBatches } from './batch';
import { verifyEvidenceFile } from './verify';

/**
 * The regulator's file in main: one interview's evidence file (recorded as an audit entry, covered by a checkpoint
 * taken for it, saved where the user says), a batch for a period (batch.ts), and the app's check of a file.
 */
export function evidenceService(ctx: MainContext) {
  const nom151 = nom151Service(ctx);
  return {
    async exportFile(request: ExportRequest): Promise<EvidenceSaved | null> {
      const by = await exporterName(ctx);
      const exportEntry = await recordExport(ctx, request, by);
      // The file's manifest is recorded before the file leaves (it is in no part: the file holds its export entry), so
      // a file that then does not leave (the save cancelled, or anything failing) is said on the trail as well.
      let built: Awaited<ReturnType<typeof buildEvidenceFile>>;
      let saved: Awaited<ReturnType<typeof ctx.files.save>>;
      try {
        // Every entry in the file, the export's own included, is covered by a checkpoint before the trail is read.
        const covered = trailCheckpoints(ctx).take();
        built = await buildEvidenceFile(
          ctx,
          request,
          { by, at: exportEntry.at },
          exportEntry,
          covered,
          new StatementCache(),
        );
        await recordManifest(ctx, exportEntry, built.manifestSha256);
        saved = await ctx.files.save({
          suggestedName: built.fileName,
          data: built.data,
          mimeType: 'application/zip',
        });
      } catch (err) {
        await recordNotWritten(ctx, exportEntry, { error: errorData(err).message.en }).catch(() => undefined);
        throw err;
      }
      if (!saved) {
        await recordNotWritten(ctx, exportEntry, 'cancelled');
        return null;
      }
      return { ...saved, fileName: built.fileName, manifestSha256: built.manifestSha256 };
    },

    /** The steps of the file's VERIFY.txt, against this environment's trusted roots; audited like any verification. */
    async verifyFile(input: { name: string; base64: string }): Promise<EvidenceVerification> {
      const bytes = new Uint8Array(Buffer.from(input.base64, 'base64'));
      if (bytes.byteLength === 0)
        throw new ReviewError(
          'EMPTY_FILE',
          { en: 'The file is empty.', es: 'El archivo está vacío.' },
          {
            en: 'Choose the .zip the app exported (an interview’s audit trail, or a batch’s folder).',
            es: 'Elige el .zip que exportó la aplicación (la bitácora de una entrevista, o la carpeta de un lote).',
          },
        );
      const result = await verifyEvidenceFile(bytes, (token, data) => nom151.verifyBytes(token, data), {
        async onTrail(seq, statement, token) {
          const [entry] = await ctx.audit.list({ seq });
          if (entry?.action !== 'checkpoint') return 'absent';
          const ours = tokenDer(String(detailOf(entry).token));
          if (Buffer.compare(Buffer.from(ours), Buffer.from(token)) !== 0) return 'absent';
          return (await statementOf(ctx.audit, entry)) === new TextDecoder().decode(statement) ? 'same' : 'differs';
        },
        async exportRecord(interviewId, exportEntry) {
          const [entry] = await ctx.audit.list({ seq: exportEntry });
          if (entry?.action !== 'downloaded' || entry.interviewId !== interviewId) return undefined;
          if (entry.detail.what !== 'evidenceFile') return undefined;
          // The exporter's own record (the database names every entry's login on a team): another's proves nothing.
          const records = await ctx.audit.list({ interviewId, action: 'downloaded', afterSeq: exportEntry });
          const manifest = records.find(
            (e) =>
              e.detail.what === 'evidenceManifest' && e.detail.exportEntry === exportEntry && e.actor === entry.actor,
          );
          return {
            // A team's login is the exporter's name; this computer's record has one user for everyone.
            ...(ctx.record.engine === 'team' && entry.actor !== undefined ? { by: entry.actor } : {}),
            ...(typeof manifest?.detail.sha256 === 'string' ? { manifestSha256: manifest.detail.sha256 } : {}),
          };
        },
        async later(interviewId, afterSeq, environment) {
          const changes = (await ctx.audit.list({ interviewId, afterSeq })).filter(
            (e) => CHANGES_IN_FILE.has(e.action) && (environment === undefined || e.environment === environment),
          );
          const last = changes.at(-1);
          return last && { count: changes.length, last: { action: last.action, at: last.at, seq: last.seq } };
        },
      });
      await ctx.audit.append({
        // Not filed under the interview the file names: an unverified file could name any.
        action: 'verified',
        detail: {
          evidenceName: plainText(input.name, 200),
          valid: result.valid,
          failures: firstFailures(result.failedParts),
        },
      });
      return result;
    },

    batches: evidenceBatches(ctx),
  };
}

/** What an evidence file records of an interview: one of these after its export makes it an old file. */
const CHANGES_IN_FILE = new Set<AuditAction>([
  'noted',
  'named',
  'decided',
  'proposed',
  'confirmed',
  'overturned',
  'decisionRemoved',
  'signed',
]);

/** The parts that failed, for the trail, which keeps every entry forever: the first 20, then how many more. */
function firstFailures(parts: string[]): string[] {
  const first = parts.slice(0, 20).map((part) => plainText(part, 200));
  return parts.length > 20 ? [...first, `… (+${parts.length - 20})`] : first;
}
