import type { Migration } from 'kysely';
import { reviewRecord } from './0001-review-record';
import { queuePaging } from './0002-queue-paging';
import { teamReview } from './0003-team-review';
import { sharedSessionTokens } from './0004-shared-session-tokens';
import { queueRisk } from './0005-queue-risk';
import { rowOwners } from './0006-row-owners';
import { reasonCodes } from './0007-reason-codes';
import { queueRiskIndex } from './0008-queue-risk-index';
import { databaseClock } from './0009-database-clock';
import { powersOnTheTrail } from './0010-powers-on-the-trail';
import { actingAsOneself } from './0011-acting-as-oneself';
import { queueFromFacts } from './0012-queue-from-facts';
import { decisionsOnTheTrail } from './0013-decisions-on-the-trail';
import { interviewIds } from './0014-interview-ids';
import { boundedTexts } from './0015-bounded-texts';
import { knownValues } from './0016-known-values';
import { tokensPerSealer } from './0017-tokens-per-sealer';
import { unassessedNeedsSecondReviewer } from './0018-unassessed-needs-second-reviewer';
import { whatOnlyTheDatabaseSays } from './0019-what-only-the-database-says';

/**
 * The review record's schema, version by version, one file each. A migration's name is what `kysely_migration`
 * records as applied, so a name never changes. Never edit a released migration: add the next one.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-review-record': reviewRecord,
  '0002-queue-paging': queuePaging,
  '0003-team-review': teamReview,
  '0004-shared-session-tokens': sharedSessionTokens,
  '0005-queue-risk': queueRisk,
  // Every row's owner set by the database, claims that bind, four eyes from readings, the chain computed here.
  '0006-row-owners': rowOwners,
  // The team's reason codes per decision kind; each decision's code held to them.
  '0007-reason-codes': reasonCodes,
  '0008-queue-risk-index': queueRiskIndex,
  // When things happened: audit entries, decisions, claims and queue entries stamped by the database's clock.
  '0009-database-clock': databaseClock,
  // A power used on another's row (a claim released or handed over, a queue entry or a decision removed, the team's
  // rules changed) written on the trail by the database itself.
  '0010-powers-on-the-trail': powersOnTheTrail,
  // Each login writes as itself, in READ COMMITTED, on a claim live now; queue keys kept; entries in a readable shape.
  '0011-acting-as-oneself': actingAsOneself,
  // The queue's state and risk follow the decisions and readings on file; a held interview's state is its holder's.
  '0012-queue-from-facts': queueFromFacts,
  // A decision's proposal, decision, confirmation or overturn written on the trail by the database, as it is recorded.
  '0013-decisions-on-the-trail': decisionsOnTheTrail,
  // Interview ids of the shape the app takes, held by the database for every login.
  '0014-interview-ids': interviewIds,
  // Reasons, drafts and what is sent to the service no longer than the app takes them, for every login.
  '0015-bounded-texts': boundedTexts,
  // Kinds, states, actions and times of the shapes the app knows; notes and names on the trail by the database.
  '0016-known-values': knownValues,
  // A sealed session token per interview and sealer: nobody's junk keeps the importer from sharing hers.
  '0017-tokens-per-sealer': tokensPerSealer,
  // An approval of an interview no check ran on needs a second reviewer under the "high-risk approvals" rule.
  '0018-unassessed-needs-second-reviewer': unassessedNeedsSecondReviewer,
  // Entries only the database writes, facts a login cannot undo, powers asked of omni_may (red team 22).
  '0019-what-only-the-database-says': whatOnlyTheDatabaseSays,
};
