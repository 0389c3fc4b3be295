import type { Claim, TeamSettings } from '../../common/team-review';
import type {
  ClaimView,
  ReasonCode,
  TeamAuditView,
  TeamChangesView,
  TeamOverviewView,
  TeamStatusView,
} from '../../common/ipc/team';
import { ReviewError } from '../errors';
import type { MainContext } from '../ports';
import type { TakeWithin } from '../record/claim-records';
import { trailCheckpoints } from '../trail/checkpoints';
import { loginOf, personOf } from './person';

const SUPERVISORS_ONLY = new ReviewError(
  'SUPERVISORS_ONLY',
  { en: 'Only a supervisor can do that.', es: 'Solo una persona supervisora puede hacer eso.' },
  {
    en: 'Ask a supervisor, or ask the team database admin for the supervisor role.',
    es: 'Pídelo a una persona supervisora, o pide el rol de supervisión a quien administra la base de datos del equipo.',
  },
);

/**
 * The team's side of review: claims on the shared queue, the change feed the screens follow, the supervisor's view
 * and the team's settings. The database attributes and enforces (its login, its grants and row-level security); the
 * checks here only give a clear word before it would refuse.
 */
export class TeamDesk {
  private who?: Promise<{ user: string; roles: TeamStatusView['roles'] }>;

  constructor(private readonly ctx: MainContext) {}

  private get record() {
    return this.ctx.record;
  }

  private environment(): string {
    return this.ctx.environments.active().id;
  }

  private whoAmI() {
    this.who ??= this.record.teamSettings.whoAmI().catch((error: unknown) => {
      this.who = undefined;
      throw error;
    });
    return this.who;
  }

  /** A claim as the screens show it: whose (as a person), and whether it is this analyst's. */
  private async view(claim: Claim): Promise<ClaimView> {
    const { user } = await this.whoAmI();
    return { ...claim, holder: personOf(this.ctx)(claim.holder), mine: claim.holder === user };
  }

  private async supervisor(): Promise<void> {
    const { roles } = await this.whoAmI();
    if (!roles.includes('supervisor') && !roles.includes('admin')) throw SUPERVISORS_ONLY;
  }

  async status(): Promise<TeamStatusView> {
    const [who, settings] = await Promise.all([this.whoAmI(), this.record.teamSettings.get()]);
    const waiting = await this.record.overview.waiting(this.environment(), settings.targetHours, new Date());
    return { engine: this.record.engine, ...who, user: personOf(this.ctx)(who.user), settings, waiting };
  }

  /** Claims the oldest free interview to review, within the analyst's view of the queue when one is given. */
  async takeNext(within?: TakeWithin): Promise<ClaimView | null> {
    const claim = await this.record.claims.takeNext(this.environment(), within);
    if (claim)
      await this.ctx.audit.append({
        interviewId: claim.interviewId,
        action: 'claimed',
        detail: { next: true, ...(within ? { inView: true } : {}) },
      });
    return claim ? this.view(claim) : null;
  }

  /** Claims the interview, or renews the claim this analyst already holds (the workspace calls it while open). */
  async claim(interviewId: string): Promise<ClaimView> {
    const env = this.environment();
    const renewed = await this.record.claims.renew(env, interviewId);
    if (renewed) return this.view(renewed);
    const claim = await this.record.claims.claim(env, interviewId);
    await this.ctx.audit.append({ interviewId, action: 'claimed', detail: {} });
    return this.view(claim);
  }

  /**
   * Lets go of this analyst's own claim; a supervisor's release lets go of anyone's (the database writes that one on
   * the trail, with whose it was: migration 0010).
   */
  async release(interviewId: string): Promise<{ released: boolean }> {
    const env = this.environment();
    if (await this.record.claims.release(env, interviewId)) {
      await this.ctx.audit.append({ interviewId, action: 'released', detail: {} });
      return { released: true };
    }
    const { roles, user } = await this.whoAmI();
    if (!roles.includes('supervisor') && !roles.includes('admin')) return { released: false };
    const holder = (await this.record.claims.holders(env)).find((c) => c.interviewId === interviewId)?.holder;
    if (!holder || holder === user || !(await this.record.claims.release(env, interviewId, true)))
      return { released: false };
    return { released: true };
  }

  /**
   * Hands the interview to a member. The database writes it on the trail when it goes to another or is taken from
   * another (migration 0010); taken for oneself when nobody else held it, it is a claim like any other.
   */
  async reassign(interviewId: string, to: string): Promise<ClaimView> {
    await this.supervisor();
    const env = this.environment();
    const { user } = await this.whoAmI();
    const heldBefore =
      to === user ? (await this.record.claims.holders(env)).find((c) => c.interviewId === interviewId) : undefined;
    const claim = await this.record.claims.reassign(env, interviewId, to);
    if (to === user && (!heldBefore || heldBefore.holder === user))
      await this.ctx.audit.append({ interviewId, action: 'claimed', detail: {} });
    return this.view(claim);
  }

  async holders(): Promise<ClaimView[]> {
    const claims = await this.record.claims.holders(this.environment());
    return Promise.all(claims.map((c) => this.view(c)));
  }

  changes(after: number, waitMs: number): Promise<TeamChangesView> {
    return this.ctx.changes.since(after, waitMs);
  }

  async overview(): Promise<TeamOverviewView> {
    await this.supervisor();
    const env = this.environment();
    const settings = await this.record.teamSettings.get();
    const now = new Date();
    const [waiting, holders, proposals, decisionsByDay, members, decisionsByCode, reasonCodes] = await Promise.all([
      this.record.overview.waiting(env, settings.targetHours, now),
      this.holders(),
      this.record.overview.proposals(env),
      this.record.overview.decisionsByDay(env, now),
      this.record.overview.members(),
      this.record.overview.decisionsByCode(env, now),
      this.record.teamSettings.reasonCodes(),
    ]);
    const person = personOf(this.ctx);
    return {
      settings,
      waiting,
      holders,
      proposals: proposals.map((p) => ({ ...p, proposedBy: person(p.proposedBy) })),
      decisionsByDay: decisionsByDay.map((d) => ({ ...d, reviewer: person(d.reviewer) })),
      members: members.map((m) => ({ ...m, user: person(m.user) })),
      decisionsByCode,
      reasonCodes,
    };
  }

  reasonCodes(): Promise<ReasonCode[]> {
    return this.record.teamSettings.reasonCodes();
  }

  /** The whole list from a supervisor; the database writes the change on the trail with the codes in use after it. */
  async saveReasonCodes(codes: ReasonCode[]): Promise<ReasonCode[]> {
    await this.supervisor();
    await this.record.teamSettings.setReasonCodes(codes);
    return this.record.teamSettings.reasonCodes();
  }

  /** The team's rules from a supervisor; the database writes a change on the trail (migration 0010). */
  async saveSettings(settings: TeamSettings): Promise<TeamSettings> {
    await this.supervisor();
    await this.record.teamSettings.set(settings);
    return this.record.teamSettings.get();
  }

  async audit(query: {
    reviewer?: string;
    action?: string;
    interviewId?: string;
    limit: number;
  }): Promise<TeamAuditView> {
    await this.supervisor();
    const reviewer = query.reviewer && loginOf(this.ctx, query.reviewer);
    const [found, chain, checks] = await Promise.all([
      this.record.overview.searchAudit({ ...query, ...(reviewer ? { reviewer } : {}) }),
      this.ctx.audit.verify(),
      trailCheckpoints(this.ctx).verify(),
    ]);
    const person = personOf(this.ctx);
    const last = checks.at(-1);
    const problem = checks.find((c) => c.outcome === 'contradicted' || c.outcome === 'forged' || c.outcome === 'late');
    return {
      ...found,
      entries: found.entries.map((e) => (e.actor ? { ...e, actor: person(e.actor) } : e)),
      chain,
      checkpoints: {
        count: checks.length,
        ...(last ? { last: { covers: last.covers, ...(last.genTime ? { genTime: last.genTime } : {}) } } : {}),
        ...(problem
          ? {
              problem: {
                covers: problem.covers,
                outcome: problem.outcome as 'contradicted' | 'forged' | 'late',
                ...(problem.by ? { by: person(problem.by) } : {}),
              },
            }
          : {}),
      },
    };
  }
}

const desks = new WeakMap<MainContext, TeamDesk>();

export function teamDesk(ctx: MainContext): TeamDesk {
  let desk = desks.get(ctx);
  if (!desk) {
    desk = new TeamDesk(ctx);
    desks.set(ctx, desk);
  }
  return desk;
}
