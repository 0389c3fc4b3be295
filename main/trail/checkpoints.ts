import { createHash } from 'node:crypto';
import type { AuditEntry } from '../../common/views';
import type { AuditTrail, ChainLink, MainContext } from '../ports';
import { nom151Service } from '../nom151/service';

/**
 * A checkpoint every this many entries, and at least daily while entries come in; a checkpoint covers no more (migration
 * 0011 refuses a longer stretch on a team database).
 */
export const CHECKPOINT_EVERY = 1_000;
export const CHECKPOINT_MAX_AGE_MS = 24 * 3_600_000;
/** How far the timestamp's own time may be from the checkpoint entry's: a re-stamped old checkpoint is far off. */
const CLOCK_SLACK_MS = 15 * 60_000;
/**
 * How long a checkpoint waits for the chain's lock before it gives up, to be taken again at the next look: any login
 * can hold that lock, and a token written long after it was issued would read as re-stamped after the fact (late).
 */
const CHECKPOINT_LOCK_WAIT_MS = 60_000;
/** How many checkpoints back the next one's start is looked for (`nextStart`): each not yet judged costs a statement. */
const START_WALK = 64;
/** A token shorter than this is no RFC 3161 token (a signed one is kilobytes): forged, without reading its stretch. */
const TOKEN_MIN_BYTES = 256;

/**
 * What a version 1 checkpoint timestamped: the trail's head, one line a fact, so `openssl ts -verify -data` checks the
 * same bytes. Kept for the checkpoints taken before statement version 2.
 */
export function checkpointStatement(seq: number, hash: string): string {
  return `Omni Reviewer audit trail checkpoint\nentry: ${seq}\nhash: ${hash}\n`;
}

/**
 * What a version 2 checkpoint timestamps: the head lines of version 1, then the hash of every entry since the previous
 * checkpoint's covered entry (`from` to the head), one `seq hash` line each. Hashes only, no entry's content: an
 * evidence file carries it to prove one entry is in the trail (`grep -Fx "seq hash"`) without any other entry's data.
 * Rebuilt from the trail, never stored: the checkpoint entry keeps `statement: 2` and `from`.
 */
export function checkpointStatementV2(head: { seq: number; hash: string }, from: number, links: ChainLink[]): string {
  const lines = [
    'Omni Reviewer audit trail checkpoint',
    `entry: ${head.seq}`,
    `hash: ${head.hash}`,
    'statement: 2',
    `from: ${from}`,
    ...links.map((l) => `${l.seq} ${l.hash}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The statement a checkpoint entry's token timestamps, rebuilt from the trail as it is now. */
export async function statementOf(audit: AuditTrail, checkpoint: AuditEntry): Promise<string> {
  const d = detailOf(checkpoint);
  if (d.statement !== 2) return checkpointStatement(d.seq, d.hash);
  const links = await audit.chain({ fromSeq: d.from!, toSeq: d.seq });
  return checkpointStatementV2(d, d.from!, links);
}

/**
 * What raises the trail's alarm: a checkpoint the history contradicts, or one stamped long after its entry says. A
 * `forged` one (a token that is not the provider's) is its writer's doing and says nothing of the history.
 */
export function checkpointAlarm(checks: CheckpointCheck[]): CheckpointCheck | undefined {
  return checks.find((c) => c.outcome === 'contradicted' || c.outcome === 'late');
}

/**
 * One checkpoint as verified now. `contradicted`: the trail's entry no longer has the hash that was timestamped (the
 * history was re-chained); `forged`: a token whose signature fails, that timestamps another statement (replayed), or
 * that was issued long before its entry was written (held back): whoever wrote that entry did it, it proves nothing
 * and says nothing of the history, so it is shown on the Team screen with its writer, not raised as the trail's
 * alarm; `late`: the token was issued long after the entry says it was written (a checkpoint re-stamped after the
 * fact); `unverifiable`: the token is sound but its root is not trusted here (another environment's service, none
 * set, or a time-stamping authority of anyone's making).
 */
export interface CheckpointCheck {
  /** The checkpoint entry's own place in the trail, and the entry it covers. */
  seq: number;
  covers: number;
  /** Whose app wrote the checkpoint entry (team databases). */
  by?: string;
  genTime?: string;
  outcome: 'ok' | 'contradicted' | 'forged' | 'late' | 'unverifiable';
}

export interface CheckpointDetail {
  /** The head it covers. */
  seq: number;
  hash: string;
  folio: string;
  token: string;
  genTime?: string;
  /** 2: the statement also lists every entry's hash from `from` to `seq`; absent on the earlier, head-only ones. */
  statement?: 2;
  from?: number;
}

export const detailOf = (entry: AuditEntry) => entry.detail as unknown as CheckpointDetail;

/** A token's verdict, once checked: its signature and imprint never change; its trust changes only with the roots. */
type TokenVerdict = { genTime?: string; trusted: boolean };
type Judgement = { outcome: 'forged' | 'contradicted'; genTime?: string } | { outcome: 'sound'; verdict: TokenVerdict };
/**
 * Per app: the Team screen asks at every search, and a long trail has a checkpoint per thousand entries. A forged
 * verdict is kept too (thousands of junk checkpoints, judged again at every look, had taken 46 s a minute).
 */
type KnownVerdict = TokenVerdict | { forged: true; genTime?: string };
const verdicts = new WeakMap<MainContext, Map<string, KnownVerdict>>();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
function knownVerdicts(ctx: MainContext): Map<string, KnownVerdict> {
  let known = verdicts.get(ctx);
  if (!known) verdicts.set(ctx, (known = new Map()));
  return known;
}
const rootsKey = (rootsPem: string[]) => sha256(rootsPem.join('\n'));
const verdictKey = (checkpointSeq: number, token: string, coveredHash: string, roots: string) =>
  `${checkpointSeq}|${sha256(token)}|${coveredHash}|${roots}`;

/**
 * The audit trail's anchors outside the database: its head timestamped through the service's NOM-151 signing (an
 * RFC 3161 token), every `CHECKPOINT_EVERY` entries and at least daily, each checkpoint itself an entry. A history
 * re-chained afterwards contradicts a token issued before it; the token verifies with OpenSSL alone.
 */
/** What the next checkpoint covers from: after `covered`; `seq` and `at` are the checkpoint it starts after, if any. */
interface Start {
  covered: number;
  seq?: number;
  at?: string;
}

export function trailCheckpoints(ctx: MainContext, opts: { every?: number } = {}) {
  const nom151 = nom151Service(ctx);
  const every = opts.every ?? CHECKPOINT_EVERY;

  /**
   * Covers the trail up to its head now. A statement lists at most `every` entries: a longer stretch since the last
   * checkpoint (a record where nobody took them, such as this computer's, before its first export) is covered by
   * several, oldest first. The last one taken, if any.
   */
  async function take(): Promise<AuditEntry | undefined> {
    const head = await ctx.audit.latest();
    if (!head?.hash) return undefined;
    return takeFrom(head, await nextStart());
  }

  async function takeFrom(head: AuditEntry, start: Start): Promise<AuditEntry | undefined> {
    // Nothing since the start but itself. (Any other checkpoint at the head, a junk one written at once after each
    // entry, had stopped every look.)
    if (start.seq === head.seq) return undefined;
    let taken: AuditEntry | undefined;
    for (let from = start.covered + 1; ;) {
      if (from > head.seq) return taken;
      const links = await ctx.audit.chain({ fromSeq: from, toSeq: Math.min(head.seq, from + every - 1) });
      const covers = links.at(-1);
      if (!covers) return taken;
      const statement = checkpointStatementV2(covers, from, links);
      const { token, folio, verification, roots } = await nom151.stamp(statement);
      taken = await ctx.audit.append(
        {
          action: 'checkpoint',
          detail: {
            seq: covers.seq,
            hash: covers.hash,
            statement: 2,
            from,
            folio,
            token,
            ...(verification.details ? { genTime: verification.details.genTime } : {}),
          },
        },
        { waitAtMostMs: CHECKPOINT_LOCK_WAIT_MS },
      );
      // Verified just now against the statement it stamps: a later check of the checkpoints need not verify it again.
      if (verification.checks.signature === 'passed' && verification.checks.imprint === 'passed')
        knownVerdicts(ctx).set(verdictKey(taken.seq, token, covers.hash, rootsKey(roots)), {
          ...(verification.details ? { genTime: verification.details.genTime } : {}),
          trusted: verification.valid,
        });
      if (covers.seq >= head.seq) return taken;
      from = covers.seq + 1;
    }
  }

  /**
   * Where the next checkpoint starts: after the furthest stretch covered by one whose token holds. Anyone's app may
   * write one, and one with a junk token must not keep its stretch from being stamped (the database takes a checkpoint
   * that starts after any earlier one, migration 0012). This login's own sound ones count even when this environment
   * does not trust their provider, or they would be stamped again at every look; and a contradicted one stands, so
   * that a history rewritten under it is never stamped as if it were the trail.
   *
   * Checkpoints are looked at furthest-reaching first, not newest first: genuine fresh stamps of an old stretch filed
   * at the head (64 of them) had filled a newest-first walk, and every app stamped the whole trail since that stretch
   * again at every look (red team 21). A writer one of whose checkpoints does not count is passed over from then on
   * (64 junk ones claiming to reach the head cost one look each; red team 20). Past `START_WALK` writers none of whose
   * checkpoints counts, it starts where the earliest genuine stamp among them does (the start of the trail if none).
   */
  async function nextStart(): Promise<Start> {
    const { user } = await ctx.record.teamSettings.whoAmI();
    const roots = rootsKey(await nom151.trustedRootsPem());
    let earliest = Infinity;
    const passedOver = new Set<string>();
    let below: { reach: number; seq: number } | undefined;
    for (let walked = 0; walked < START_WALK; walked++) {
      const checkpoint = await ctx.audit.furthestCheckpoint({ passOver: [...passedOver], ...(below ? { below } : {}) });
      if (!checkpoint) break;
      const judged = await judge(checkpoint, roots);
      const covered = detailOf(checkpoint).seq;
      if (
        judged.outcome === 'contradicted' ||
        (judged.outcome === 'sound' && (judged.verdict.trusted || checkpoint.actor === user))
      )
        return { covered, seq: checkpoint.seq, at: checkpoint.at };
      const from = detailOf(checkpoint).from;
      // Only a genuine stamp (of a provider not trusted here) says where a stretch starts; junk says what it likes.
      if (judged.outcome === 'sound' && Number.isSafeInteger(from) && from! >= 1) earliest = Math.min(earliest, from!);
      // This login's own are stepped past one by one, never passed over: its later ones may hold.
      if (checkpoint.actor && checkpoint.actor !== user) passedOver.add(checkpoint.actor);
      below = { reach: covered, seq: checkpoint.seq };
    }
    return { covered: earliest === Infinity ? 0 : earliest - 1 };
  }

  /**
   * Whether one checkpoint's token is the provider's timestamp of its statement as the trail holds it now: what an
   * evidence file may offer as proof of the entries it covers, and what the next checkpoint starts after. Cached as
   * `verify` caches.
   */
  async function holds(entry: AuditEntry): Promise<boolean> {
    const judged = await judge(entry, rootsKey(await nom151.trustedRootsPem()));
    // A token that does not chain to a root this environment trusts is anyone's: no proof.
    return judged.outcome === 'sound' && judged.verdict.trusted;
  }

  /**
   * What one checkpoint's token says of the trail as the database holds it now: `forged` (it names no entry by its
   * hash, its signature fails, or it timestamps another statement: replayed, or stamped by anyone), `contradicted` (the
   * entry it covers has had another hash since: the history's doing, since the database took the checkpoint only with
   * that entry's hash then, and the chain binds every hash before it), or `sound` with the token's verdict. A token
   * verified once under the same roots is not verified again: what can change later is the covered entry's hash, read
   * again here every time (an entry changed with its hash left as it was fails the chain's own check, the witness's).
   */
  async function judge(entry: AuditEntry, roots: string): Promise<Judgement> {
    const d = detailOf(entry);
    // One that names no entry by its hash proves nothing (the team database refuses one since migration 0011; an
    // older record or its superuser may hold one).
    const named = Number.isSafeInteger(d.seq) && d.seq >= 1 && d.seq < entry.seq && typeof d.hash === 'string';
    if (!named || (d.statement === 2 && !(Number.isSafeInteger(d.from) && d.from! >= 1 && d.from! <= d.seq)))
      return { outcome: 'forged' };
    const token = String(d.token ?? '');
    if (Buffer.from(token, 'base64').byteLength < TOKEN_MIN_BYTES) return { outcome: 'forged' };
    const [covered] = await ctx.audit.list({ seq: d.seq });
    const key = verdictKey(entry.seq, token, d.hash, roots);
    // While the covered entry keeps its hash, the statement is the same (the chain binds every hash before it).
    const known = covered?.hash === d.hash ? knownVerdicts(ctx).get(key) : undefined;
    if (known && 'forged' in known) return { outcome: 'forged', ...(known.genTime ? { genTime: known.genTime } : {}) };
    if (known) return { outcome: 'sound', verdict: known };
    const v = await nom151.verifyStamp(token, await statementOf(ctx.audit, entry));
    const at = v.details ? { genTime: v.details.genTime } : {};
    const forged = (): Judgement => {
      if (covered?.hash === d.hash) knownVerdicts(ctx).set(key, { forged: true, ...at });
      return { outcome: 'forged', ...at };
    };
    if (v.checks.signature !== 'passed') return forged();
    if (covered?.hash !== d.hash) return { outcome: 'contradicted', ...at };
    if (v.checks.imprint !== 'passed') return forged();
    // A trusted token issued long before its entry was written (whose time is the database's): held back, or a
    // genuine checkpoint's token filed again in another envelope (red team 20); its writer's doing, covering nothing.
    // (An untrusted token's time says nothing: anyone dates theirs as they like.)
    if (v.valid && v.details && Date.parse(entry.at) - Date.parse(v.details.genTime) > CLOCK_SLACK_MS) return forged();
    const verdict = { ...at, trusted: v.valid };
    knownVerdicts(ctx).set(key, verdict);
    return { outcome: 'sound', verdict };
  }

  return {
    take,

    /** Takes one when the trail has grown by `CHECKPOINT_EVERY` entries, or its newest uncovered entry is a day old. */
    async maybe(now = Date.now()): Promise<AuditEntry | undefined> {
      const head = await ctx.audit.latest();
      if (!head?.hash) return undefined;
      const start = await nextStart();
      if (start.seq === head.seq) return undefined;
      const since = Date.parse(start.at ?? (await ctx.audit.list({ seq: 1 }))[0]?.at ?? head.at);
      if (head.seq - start.covered < CHECKPOINT_EVERY && now - since < CHECKPOINT_MAX_AGE_MS) return undefined;
      return takeFrom(head, start);
    },

    holds,

    /**
     * Every checkpoint on file, checked against the trail as the database holds it now (`judge`), then for trust
     * and time.
     */
    async verify(): Promise<CheckpointCheck[]> {
      const entries = await ctx.audit.list({ action: 'checkpoint' });
      if (entries.length === 0) return [];
      const environment = ctx.environments.active().id;
      const roots = rootsKey(await nom151.trustedRootsPem());
      const checks: CheckpointCheck[] = [];
      for (const entry of entries) {
        const d = detailOf(entry);
        const check = (outcome: CheckpointCheck['outcome'], genTime?: string): CheckpointCheck => ({
          seq: entry.seq,
          covers: d.seq,
          outcome,
          ...(genTime ? { genTime } : {}),
          ...(entry.actor ? { by: entry.actor } : {}),
        });
        const judged = await judge(entry, roots);
        if (judged.outcome !== 'sound') {
          checks.push(check(judged.outcome, judged.genTime));
          continue;
        }
        const verdict = judged.verdict;
        // Only a token of a root trusted here says anything of time: anyone can make a token of any date.
        if (!verdict.trusted) {
          checks.push(check('unverifiable', verdict.genTime));
          continue;
        }
        // Late: issued long after its entry was written (stamped again after the fact). Issued long before is
        // forged already (`judge`).
        const issuedAfter = verdict.genTime ? Date.parse(verdict.genTime) - Date.parse(entry.at) : 0;
        if (issuedAfter > CLOCK_SLACK_MS) {
          checks.push(check('late', verdict.genTime));
          continue;
        }
        checks.push(check(entry.environment === environment ? 'ok' : 'unverifiable', verdict.genTime));
      }
      return checks;
    },
  };
}
