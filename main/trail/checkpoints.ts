import type { AuditEntry } from '../../common/views';
import type { MainContext } from '../ports';
import { nom151Service } from '../nom151/service';

/** A checkpoint every this many entries, and at least daily while entries come in. */
export const CHECKPOINT_EVERY = 1_000;
export const CHECKPOINT_MAX_AGE_MS = 24 * 3_600_000;
/** How far the timestamp's own time may be from the checkpoint entry's: a re-stamped old checkpoint is far off. */
const CLOCK_SLACK_MS = 15 * 60_000;

/** What is timestamped: the trail's head, one line a fact, so `openssl ts -verify -data` checks the same bytes. */
export function checkpointStatement(seq: number, hash: string): string {
  return `Omni Reviewer audit trail checkpoint\nentry: ${seq}\nhash: ${hash}\n`;
}

/**
 * One checkpoint as verified now. `contradicted`: the trail's entry no longer has the hash that was timestamped (the
 * history was re-chained); `forged`: the token does not timestamp this statement, or its signature fails;
 * `late`: the token was issued long after the entry says it was written (a checkpoint re-stamped after the fact);
 * `unverifiable`: the token is sound but its root is not trusted here (another environment's service, or none set).
 */
export interface CheckpointCheck {
  /** The checkpoint entry's own place in the trail, and the entry it covers. */
  seq: number;
  covers: number;
  genTime?: string;
  outcome: 'ok' | 'contradicted' | 'forged' | 'late' | 'unverifiable';
}

interface CheckpointDetail {
  seq: number;
  hash: string;
  folio: string;
  token: string;
  genTime?: string;
}

const detailOf = (entry: AuditEntry) => entry.detail as unknown as CheckpointDetail;

/**
 * The audit trail's anchors outside the database: its head timestamped through the service's NOM-151 signing (an
 * RFC 3161 token), every `CHECKPOINT_EVERY` entries and at least daily, each checkpoint itself an entry. A history
 * re-chained afterwards contradicts a token issued before it; the token verifies with OpenSSL alone.
 */
export function trailCheckpoints(ctx: MainContext) {
  const nom151 = nom151Service(ctx);

  async function take(): Promise<AuditEntry | undefined> {
    const head = await ctx.audit.latest();
    if (!head || head.action === 'checkpoint' || !head.hash) return undefined;
    const statement = checkpointStatement(head.seq, head.hash);
    const { token, folio, verification } = await nom151.stamp(statement);
    return ctx.audit.append({
      action: 'checkpoint',
      detail: {
        seq: head.seq,
        hash: head.hash,
        folio,
        token,
        ...(verification.details ? { genTime: verification.details.genTime } : {}),
      },
    });
  }

  return {
    take,

    /** Takes one when the trail has grown by `CHECKPOINT_EVERY` entries, or its newest uncovered entry is a day old. */
    async maybe(now = Date.now()): Promise<AuditEntry | undefined> {
      const head = await ctx.audit.latest();
      if (!head || head.action === 'checkpoint') return undefined;
      const last = await ctx.audit.latest('checkpoint');
      const covered = last ? detailOf(last).seq : 0;
      const since = last ? Date.parse(last.at) : Date.parse((await ctx.audit.list({ seq: 1 }))[0]?.at ?? head.at);
      if (head.seq - covered < CHECKPOINT_EVERY && now - since < CHECKPOINT_MAX_AGE_MS) return undefined;
      return take();
    },

    /** Every checkpoint on file, checked against the trail as the database holds it now. */
    async verify(): Promise<CheckpointCheck[]> {
      const environment = ctx.environments.active().id;
      const checks: CheckpointCheck[] = [];
      for (const entry of await ctx.audit.list({ action: 'checkpoint' })) {
        const d = detailOf(entry);
        const check = (outcome: CheckpointCheck['outcome'], genTime?: string): CheckpointCheck => ({
          seq: entry.seq,
          covers: d.seq,
          outcome,
          ...(genTime ? { genTime } : {}),
        });
        const statement = checkpointStatement(d.seq, d.hash);
        const verification = await nom151.verifyStamp(String(d.token ?? ''), statement);
        const genTime = verification.details?.genTime;
        if (verification.checks.imprint !== 'passed' || verification.checks.signature !== 'passed') {
          checks.push(check('forged', genTime));
          continue;
        }
        const [covered] = await ctx.audit.list({ seq: d.seq });
        if (covered?.hash !== d.hash) {
          checks.push(check('contradicted', genTime));
          continue;
        }
        if (genTime && Math.abs(Date.parse(genTime) - Date.parse(entry.at)) > CLOCK_SLACK_MS) {
          checks.push(check('late', genTime));
          continue;
        }
        checks.push(check(verification.valid && entry.environment === environment ? 'ok' : 'unverifiable', genTime));
      }
      return checks;
    },
  };
}
