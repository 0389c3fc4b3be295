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
  // interview's entries of every environment). The entries wait in queues under what they say, so a file of many
  // entries and decisions costs one pass over each, not one over the entries per decision.
  const environment = exported.environment?.id;
  const ofFile = proved.filter((e) => environment === undefined || e.environment === environment);
  const unused = ofFile.filter((e) => RECORDED.has(String(e.action)) || REVIEWED.has(String(e.action)));
  const waiting = new Map<string, ProvedEntry[]>();
  for (const e of unused) {
    const key = entryKey(e);
    if (key === undefined) continue;
    const queue = waiting.get(key);
    if (queue) queue.push(e);
    else waiting.set(key, [e]);
  }
  // A queue is taken from the front: its own index, not shift(), which moves every other entry.
  const taken = new Set<ProvedEntry>();
  const next = new Map<string, number>();
  const take = (key: string) => {
    const queue = waiting.get(key);
    const at = next.get(key) ?? 0;
    if (!queue || at >= queue.length) return false;
    next.set(key, at + 1);
    taken.add(queue[at]!);
    return true;
  };
  let unproved = 0;
  listed.forEach((r, i) => {
    if (!take(recordedKey(r.decision, r.reason, r.reasonCode))) {
      unproved++;
      if (unproved <= 5)
        checks.push({ step, part: 'decisions.json', outcome: 'notOnTrail', message: words.notProved(i + 1) });
      return;
    }
    if (REVIEWED.has(r.status)) take(reviewedKey(r.status, r.decision, r.reviewReason));
  });
  // Entries left over were left out or changed, unless the decision was removed since: an admin's removal is on the
  // trail (0010), and what it removed is history; the demo's reset leaves no entry, so the demo's are history too.
  const removedUpTo = Math.max(0, ...ofFile.filter((e) => e.action === 'decisionRemoved').map((e) => e.seq));
  const leftOut = environment === 'demo' ? [] : unused.filter((e) => !taken.has(e) && e.seq > removedUpTo);
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

/**
 * What a decision entry says, as the key a decision of decisions.json looks it up by: a recorded decision by its
 * decision, reason and reason code (either action), a review by its action, decision and reason. Only strings (and an
 * absent reason code or review reason) can equal what decisions.json lists: an entry saying anything else has no key.
 */
function entryKey(e: ProvedEntry): string | undefined {
  const { decision, reason, reasonCode } = e.detail;
  const text = (v: unknown) => typeof v === 'string';
  const textOrAbsent = (v: unknown) => v === undefined || typeof v === 'string';
  if (!text(decision)) return undefined;
  if (RECORDED.has(String(e.action)))
    return text(reason) && textOrAbsent(reasonCode)
      ? recordedKey(decision as string, reason as string, reasonCode as string | undefined)
      : undefined;
  return textOrAbsent(reason)
    ? reviewedKey(String(e.action), decision as string, reason as string | undefined)
    : undefined;
}

const recordedKey = (decision: string, reason: string, reasonCode: string | undefined) =>
  JSON.stringify(['recorded', decision, reason, reasonCode ?? null]);
const reviewedKey = (action: string, decision: string, reason: string | undefined) =>
  JSON.stringify(['reviewed', action, decision, reason ?? null]);
