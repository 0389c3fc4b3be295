import type { QueueQuery, QueueScope } from '../../common/ipc/queue';

/**
 * The one query-key factory. Every React Query key of the app comes from here so invalidation stays exact:
 * one block per area, keys as arrays from general to specific (invalidating `keys.interview.all(id)` refreshes
 * every panel of that interview). Switching environment resets every query (see useSwitchEnvironment), so keys
 * need not carry the environment. Feature helpers: add your block below, nothing else.
 */
export const keys = {
  app: {
    info: () => ['app', 'info'] as const,
    auditTrail: () => ['app', 'auditTrail'] as const,
    recordLink: () => ['app', 'recordLink'] as const,
  },
  settings: {
    all: () => ['settings'] as const,
    environments: () => ['settings', 'environments'] as const,
    storageSecurity: () => ['settings', 'storageSecurity'] as const,
    preferences: () => ['settings', 'preferences'] as const,
    teamDatabase: () => ['settings', 'teamDatabase'] as const,
  },
  interview: {
    all: (id: string) => ['interview', id] as const,
    overview: (id: string) => ['interview', id, 'overview'] as const,
    rawIdv: (id: string) => ['interview', id, 'rawIdv'] as const,
    crossDoc: (id: string) => ['interview', id, 'crossDoc'] as const,
    contracts: (id: string) => ['interview', id, 'contracts'] as const,
    video: (id: string) => ['interview', id, 'video'] as const,
    drafts: (id: string) => ['interview', id, 'drafts'] as const,
    audit: (id: string) => ['interview', id, 'audit'] as const,
    /** The recorded opening of one visit. Outside `all(id)` so "refresh all" reloads the panels, not the visit. */
    opening: (id: string) => ['interviewOpening', id] as const,
  },
  queue: {
    all: () => ['queue'] as const,
    list: () => ['queue', 'list'] as const,
    /** The queue screen's pages, counts and the workspace's way: under `all()`, so every change to the queue refreshes them. */
    allPages: () => ['queue', 'pages'] as const,
    pages: (query: QueueQuery) => ['queue', 'pages', query] as const,
    counts: (search: string, scope: QueueScope) => ['queue', 'counts', search, scope] as const,
    views: () => ['queue', 'views'] as const,
    neighbours: (interviewId: string, query: QueueQuery) => ['queue', 'neighbours', interviewId, query] as const,
    demoSeeds: () => ['queue', 'demoSeeds'] as const,
  },
  team: {
    all: () => ['team'] as const,
    status: () => ['team', 'status'] as const,
    holders: () => ['team', 'holders'] as const,
    overview: () => ['team', 'overview'] as const,
    reasonCodes: () => ['team', 'reasonCodes'] as const,
    audit: (query: { reviewer?: string; action?: string; interviewId?: string }) => ['team', 'audit', query] as const,
  },
  nom151: {
    trustedRoots: () => ['nom151', 'trustedRoots'] as const,
  },
  apikeys: {
    /** `organization`: the super-administrator organization reference, '' for the caller's own. */
    list: (organization: string) => ['apikeys', 'list', organization] as const,
  },
  validation: {
    batch: (jobId: string) => ['validation', 'batch', jobId] as const,
  },
  capture: {
    importJob: (jobId: string) => ['capture', 'importJob', jobId] as const,
  },
};
