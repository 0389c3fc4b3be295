import { z } from 'zod';
import { SessionStatus } from '../omni/common';
import { channel, says } from './define';

/** Interview ids are opaque to us; this keeps out whitespace, paths and control characters. */
export const InterviewId = z
  .string()
  .trim()
  .min(1, says('Write the interview id', 'Escribe el id de la entrevista'))
  .max(128, says('An interview id has at most 128 characters', 'Un id de entrevista tiene como máximo 128 caracteres'))
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
    says(
      'Interview ids use letters, digits and . _ : - only, starting with a letter or digit, without spaces',
      'Un id de entrevista lleva solo letras, números y . _ : -, empieza con letra o número y no tiene espacios',
    ),
  );

/** A session token as pasted by the user: one word, no spaces. Goes to the vault and never comes back. */
export const SessionToken = z
  .string()
  .trim()
  .min(8, says('A session token has at least 8 characters', 'Un token de sesión tiene al menos 8 caracteres'))
  .max(
    8192,
    says('A session token has at most 8,192 characters', 'Un token de sesión tiene como máximo 8,192 caracteres'),
  )
  .regex(/^\S+$/, says('A session token has no spaces', 'Un token de sesión no lleva espacios'));

export const LocalReviewState = z.enum(['toReview', 'inReview', 'decided']);
export type LocalReviewState = z.infer<typeof LocalReviewState>;

export interface QueueEntry {
  interviewId: string;
  label?: string;
  /** The label in Spanish, when the source gave one; the screen falls back to `label`. */
  labelEs?: string;
  addedAt: string;
  localState: LocalReviewState;
  /** Last `sessionStatus` any response carried for this interview, and when. */
  sessionStatus?: SessionStatus;
  sessionStatusSeenAt?: string;
  lastOpenedAt?: string;
  /**
   * How risky the last ID-validation answer read for it was (riskLevelOf): `high`, `medium`, `low`, `unassessed` (no
   * check ran), or a fraud-risk severity newer than the spec, as the service sent it. Absent until its checks are read.
   */
  risk?: string;
  /** Whether the vault holds a session token for it; the token itself never leaves main. */
  hasSessionToken: boolean;
  /** Its decision is a proposal waiting for a second reviewer (four eyes): decided for now, not final. */
  awaitingSecondReview?: true;
}

export interface ImportProblem {
  line: number;
  text: string;
  message: { en: string; es: string };
}

/**
 * A link's interview, opened; `linkTokenNotUsed` when its token was not attached: it names another interview, or the
 * interview already holds a different one (a link from a web page must not swap it unasked).
 */
export interface DeepLinkOpened {
  interviewId: string;
  linkTokenNotUsed?: 'otherInterview' | 'otherTokenHeld';
}

export interface AddResult {
  added: string[];
  updated: string[];
  tokensAttached: number;
  problems: ImportProblem[];
}

export interface DemoSeed {
  interviewId: string;
  label: string;
  labelEs?: string;
  sessionStatus: SessionStatus;
  inQueue: boolean;
}

const Empty = z.object({}).strict();

/**
 * How the queue screen looks at the queue: filters, search (id or label, any case) and an order main can page through
 * by key (each order ends on the interview id, so every row has one place).
 */
/** 'added': oldest first, which is longest waiting first (the waiting time counts from it); 'risk': highest first. */
export const QueueSort = z.enum(['added', 'id', 'status', 'risk']);
export type QueueSort = z.infer<typeof QueueSort>;
/** Who holds it (a claim that has not lapsed): this analyst, nobody, someone else. */
export const HolderFilter = z.enum(['all', 'mine', 'unclaimed', 'others']);
export type HolderFilter = z.infer<typeof HolderFilter>;
/** A decision waiting for a second reviewer: any, or one this analyst may confirm (proposed by someone else). */
export const ReviewFilter = z.enum(['all', 'waiting', 'forMe']);
export type ReviewFilter = z.infer<typeof ReviewFilter>;
/** Not decided yet and waiting longer than the team's target time, or not yet. */
export const AgeFilter = z.enum(['all', 'pastTarget', 'withinTarget']);
export type AgeFilter = z.infer<typeof AgeFilter>;
/**
 * The risk level its checks were last read with; `unknown`: not read yet, read with no check run (`unassessed`), or a
 * severity the spec does not list.
 */
export const RiskLevel = z.enum(['high', 'medium', 'low']);
export type RiskLevel = z.infer<typeof RiskLevel>;
/**
 * The level filed for an interview read with no ID-validation check run and nothing high or medium: the service's
 * answer holds nothing to judge it low by.
 */
export const RISK_UNASSESSED = 'unassessed';
export const RiskFilter = z.union([RiskLevel, z.literal('unknown'), z.literal('all')]);
export type RiskFilter = z.infer<typeof RiskFilter>;

/** Filters beyond state and status; absent means all (callers from before they existed). */
export const QueueScope = z.object({
  holder: HolderFilter.optional(),
  review: ReviewFilter.optional(),
  age: AgeFilter.optional(),
  risk: RiskFilter.optional(),
});
export type QueueScope = z.infer<typeof QueueScope>;
export const QueueFilter = QueueScope.extend({
  state: z.union([LocalReviewState, z.literal('all')]),
  /** 'unknown': no response has carried a session status for it yet. */
  status: z.union([SessionStatus, z.literal('unknown'), z.literal('all')]),
});
export type QueueFilter = z.infer<typeof QueueFilter>;
/** The longest search the queue takes: the search field holds no more (maxLength), main refuses more. */
export const QUEUE_SEARCH_MAX = 300;
export const QueueSearch = z
  .string()
  .max(
    QUEUE_SEARCH_MAX,
    says(
      `A search has at most ${QUEUE_SEARCH_MAX} characters`,
      `La búsqueda admite hasta ${QUEUE_SEARCH_MAX} caracteres`,
    ),
  );
export const QueueQuery = z.object({ filter: QueueFilter, sort: QueueSort, search: QueueSearch });
export type QueueQuery = z.infer<typeof QueueQuery>;

/**
 * Where a page ends: the last row's sort key (added time, session status, `rank|added time` for the risk order; null
 * for the id order) and id.
 */
export const QueueCursor = z.object({ key: z.string().max(64).nullable(), interviewId: InterviewId });
export type QueueCursor = z.infer<typeof QueueCursor>;

export interface QueuePage {
  rows: QueueEntry[];
  /** Where the next page starts; absent on the last page. */
  next?: QueueCursor;
}

export interface QueueCounts {
  /** Every entry of the queue, whatever the search. */
  total: number;
  /** Entries matching the search and the scope, by local state and session status: the toolbar sums what each filter keeps. */
  matching: { localState: LocalReviewState; status: SessionStatus | 'unknown'; count: number }[];
}

/**
 * A view of the queue an analyst keeps in the review record (table saved_views): filters, sort and search. Shared
 * ones are seen by the whole team and changed by their owner only (row-level security).
 */
export interface SavedView {
  id: number;
  name: string;
  owner: string;
  mine: boolean;
  shared: boolean;
  query: QueueQuery;
}
/** The longest name of a saved view. */
export const SAVED_VIEW_NAME_MAX = 60;
/**
 * Whether a name shows anything: a letter, digit, sign or symbol, not only spaces, control characters or the
 * characters that draw nothing (zero-width space and joiner, BOM, soft hyphen, Hangul fillers, the Braille blank).
 */
export function hasVisibleCharacter(text: string): boolean {
  return /[^\s\p{Z}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}⠀]/u.test(text);
}
export const SavedViewName = z
  .string()
  .trim()
  .min(1, says('Name the view', 'Ponle un nombre a la vista'))
  .max(
    SAVED_VIEW_NAME_MAX,
    says(
      `A view name has at most ${SAVED_VIEW_NAME_MAX} characters`,
      `El nombre de una vista tiene como máximo ${SAVED_VIEW_NAME_MAX} caracteres`,
    ),
  )
  .refine(
    hasVisibleCharacter,
    says(
      'A view name needs at least one visible character: invisible ones (such as a zero-width space) show as a blank name',
      'El nombre de la vista necesita al menos un carácter visible: los invisibles (como un espacio de ancho cero) se ven como un nombre en blanco',
    ),
  );

export interface QueueNeighbours {
  prev?: string;
  next?: string;
  /** Its place on the way (0-based) and the way's length; -1 when it is not in the queue. */
  index: number;
  count: number;
}

/** Rows per page the queue screen asks for; a page can be longer to reach a row far down (the way back). */
export const QUEUE_PAGE_MAX = 5_000;

/** The most characters `importText` takes: a pasted list or a CSV file's text. The file control checks it first. */
export const IMPORT_TEXT_MAX = 2_000_000;

export const queue = {
  /** The whole queue, for the pickers of other screens (capture, validation); the queue screen reads pages. */
  list: channel<QueueEntry[]>()(Empty),
  /** One page of the queue as filtered, searched and sorted, after `after` (keyset, never an offset). */
  page: channel<QueuePage>()(
    QueueQuery.extend({ after: QueueCursor.optional(), limit: z.number().int().min(1).max(QUEUE_PAGE_MAX) }),
  ),
  counts: channel<QueueCounts>()(z.object({ search: QueueSearch.optional(), scope: QueueScope.optional() })),
  /** The interviews before and after one, on the queue as filtered, searched and sorted: the workspace's keys. */
  neighbours: channel<QueueNeighbours>()(QueueQuery.extend({ interviewId: InterviewId })),
  add: channel<AddResult>()(
    z.object({
      items: z
        .array(z.object({ interviewId: InterviewId, sessionToken: SessionToken.optional() }))
        .min(1)
        .max(5000),
    }),
  ),
  /** A pasted list or the text of a CSV file; problems are reported per line, good lines are still added. */
  importText: channel<AddResult>()(
    z.object({ text: z.string().max(IMPORT_TEXT_MAX), format: z.enum(['auto', 'csv', 'list']).default('auto') }),
  ),
  /** Takes the entry off the work list; its token, drafts and audit trail stay. */
  remove: channel<{ removed: boolean }>()(z.object({ interviewId: InterviewId })),
  /** Undoes a removal made since the app started: the entry comes back as it was. */
  restore: channel<QueueEntry>()(z.object({ interviewId: InterviewId })),
  /** The analyst's manual change of local state (reopen a decided one, back to "to review"); recorded in the audit trail. */
  setState: channel<QueueEntry>()(z.object({ interviewId: InterviewId, state: LocalReviewState })),
  attachToken: channel<QueueEntry>()(z.object({ interviewId: InterviewId, sessionToken: SessionToken })),
  clearToken: channel<QueueEntry>()(z.object({ interviewId: InterviewId })),
  /** The views this analyst saved and those the team shares, by name. */
  views: channel<SavedView[]>()(Empty),
  /** Saves a view under a name; one of the analyst's own with that name is replaced. */
  saveView: channel<SavedView>()(z.object({ name: SavedViewName, query: QueueQuery, shared: z.boolean() }).strict()),
  /** Deletes one of the analyst's own views. */
  deleteView: channel<{ deleted: boolean }>()(z.object({ id: z.number().int().positive() }).strict()),
  /** `omni-reviewer://interview/<id>[?token=…]`: adds the interview (and token) and says which one to open. */
  openDeepLink: channel<DeepLinkOpened>()(z.object({ url: z.string().max(10_000) })),
  /** Seeded interviews of the demo environment; empty in other environments. */
  demoSeeds: channel<DemoSeed[]>()(Empty),
  addDemoSeeds: channel<AddResult>()(z.object({ interviewIds: z.array(InterviewId).max(500).optional() })),
};
