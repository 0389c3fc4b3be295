import { z } from 'zod';
import type { Bilingual } from '../../common/ipc/nom151';
import type { EvidenceCheck } from '../../common/ipc/evidence';

/**
 * Beyond VERIFY.txt, on the file alone: its readable parts say what its proved entries say. The proved entries are the
 * trail's own bytes; `decisions.json` and `export.json` are the app's account of them, which nothing stamped binds to
 * them but the manifest. An exporter whose modified client recorded a rewritten manifest for their own export still
 * cannot make the decision history contradict the decision entries the database wrote (migration 0013).
 */

/** An entry as its hashed text says it (hash version 2: one field a line, detail last; version 1: canonical JSON). */
export interface ProvedEntry {
  seq: number;
  at: unknown;
  environment: unknown;
  action: unknown;
  detail: Record<string, unknown>;
}

export function readProvedEntry(seq: number, text: string): ProvedEntry | undefined {
  try {
    if (text.startsWith('omni-audit-v2\n')) {
      const lines = text.split('\n');
      const detail: unknown = JSON.parse(lines.slice(8).join('\n'));
      return {
        seq,
        at: JSON.parse(lines[3]!),
        environment: JSON.parse(lines[4]!),
        action: JSON.parse(lines[6]!),
        detail: asRecord(detail),
      };
    }
    const entry = asRecord(JSON.parse(text));
    return { seq, at: entry.at, environment: entry.environment, action: entry.action, detail: asRecord(entry.detail) };
  } catch {
    return undefined;
  }
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const DecisionsRead = z.looseObject({
  decisions: z
    .array(
      z.looseObject({
        decision: z.string(),
        reason: z.string(),
        reasonCode: z.string().optional(),
        status: z.string(),
        reviewReason: z.string().optional(),
      }),
    )
    .max(100_000),
});

const words = {
  unreadable: {
    en: 'decisions.json is not in the shape the app writes: it was edited, or made by something else.',
    es: 'decisions.json no tiene la forma que escribe la app: se editó, o lo hizo otra cosa.',
  },
  leftOut: (action: string, seq: number): Bilingual => ({
    en: `Entry #${seq} (${action}) proves a decision that decisions.json does not list as it is, and no removal of it is on the trail: the decision history in the file was changed.`,
    es: `La entrada #${seq} (${action}) demuestra una decisión que decisions.json no lista tal cual, y ninguna eliminación suya está en la bitácora: el historial de decisiones del archivo cambió.`,
  }),
  notProved: (n: number): Bilingual => ({
    en: `No entry of the file proves decision ${n} of decisions.json: recorded by an earlier version, which did not write decisions on the trail, or added to the file.`,
    es: `Ninguna entrada del archivo demuestra la decisión ${n} de decisions.json: la registró una versión anterior, que no escribía las decisiones en la bitácora, o se añadió al archivo.`,
  }),
  exportDiffers: {
    en: 'export.json says another exporter, time or purpose than the export’s own entry in the file: it was changed after the export.',
    es: 'export.json dice otro exportador, hora o propósito que la entrada de la exportación en el archivo: cambió después de la exportación.',
  },
};

/** The decision entries the database writes: a decision recorded (final or proposed), then a proposal's review. */
const RECORDED = new Set(['decided', 'proposed']);
const REVIEWED = new Set(['confirmed', 'overturned']);

export function agreementChecks(
  decisionsJson: Uint8Array | undefined,
  exported: {
    exportEntry?: number;
    exportedAt: string;
    exportedBy: string;
    purpose: string;
    environment?: { id: string };
  },
  proved: ProvedEntry[],
): EvidenceCheck[] {
  const checks: EvidenceCheck[] = [];
  const step = 'agreement' as const;

  const exportEntry = proved.find((e) => e.seq === exported.exportEntry);
  if (exportEntry) {
    const d = exportEntry.detail;
    const same =
      exportEntry.action === 'downloaded' &&
      d.what === 'evidenceFile' &&
      exportEntry.at === exported.exportedAt &&
      d.purpose === exported.purpose &&
      (d.by === undefined || d.by === exported.exportedBy);
    checks.push(
      same
        ? { step, part: 'export.json', outcome: 'ok' }
        : { step, part: 'export.json', outcome: 'failed', message: words.exportDiffers },
    );
  }

  if (!decisionsJson) return checks;
  let listed: z.infer<typeof DecisionsRead>['decisions'];
  try {
    const parsed = DecisionsRead.safeParse(JSON.parse(new TextDecoder().decode(decisionsJson)));
    if (!parsed.success) throw new Error('shape');
    listed = parsed.data.decisions;
  } catch {
    return [...checks, { step, part: 'decisions.json', outcome: 'failed', message: words.unreadable }];
  }
  // Each decision listed takes the first unused entry of the file's environment that says it (the file carries the
  // interview's entries of every environment).
  const environment = exported.environment?.id;
  const ofFile = proved.filter((e) => environment === undefined || e.environment === environment);
  const unused = ofFile.filter((e) => RECORDED.has(String(e.action)) || REVIEWED.has(String(e.action)));
  const take = (match: (e: ProvedEntry) => boolean) => {
    const at = unused.findIndex(match);
    return at >= 0 && unused.splice(at, 1).length === 1;
  };
  let unproved = 0;
  listed.forEach((r, i) => {
    const recorded = take(
      (e) =>
        RECORDED.has(String(e.action)) &&
        e.detail.decision === r.decision &&
        e.detail.reason === r.reason &&
        e.detail.reasonCode === r.reasonCode,
    );
    if (!recorded) {
      unproved++;
      if (unproved <= 5)
        checks.push({ step, part: 'decisions.json', outcome: 'notOnTrail', message: words.notProved(i + 1) });
      return;
    }
    if (REVIEWED.has(r.status))
      take((e) => e.action === r.status && e.detail.decision === r.decision && e.detail.reason === r.reviewReason);
  });
  // Entries left over were left out or changed, unless the decision was removed since: an admin's removal is on the
  // trail (0010), and what it removed is history; the demo's reset leaves no entry, so the demo's are history too.
  const removedUpTo = Math.max(0, ...ofFile.filter((e) => e.action === 'decisionRemoved').map((e) => e.seq));
  const leftOut = environment === 'demo' ? [] : unused.filter((e) => e.seq > removedUpTo);
  for (const e of leftOut.slice(0, 5))
    checks.push({
      step,
      part: 'decisions.json',
      outcome: 'failed',
      message: words.leftOut(String(e.action), e.seq),
    });
  if (unproved === 0 && leftOut.length === 0) checks.push({ step, part: 'decisions.json', outcome: 'ok' });
  return checks;
}
