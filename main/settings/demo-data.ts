import type { Vault } from '../auth/vault';
import type { JsonStore } from '../json-store';

const DEMO_ENVIRONMENT = 'demo';

/**
 * Forgets what was done with the demo environment: its review queue (and the session tokens of its interviews), its
 * drafts and its decisions. Other environments are untouched, and so is the audit trail: it is append-only.
 */
export async function resetDemoData(store: JsonStore, vault: Vault): Promise<{ interviews: number }> {
  const queueKey = `review.queue.${DEMO_ENVIRONMENT}`;
  const interviewIds = Object.keys(store.peek<Record<string, unknown>>(queueKey) ?? {});
  for (const interviewId of interviewIds) await vault.clearSessionToken(DEMO_ENVIRONMENT, interviewId);
  for (const key of [queueKey, `review.drafts.${DEMO_ENVIRONMENT}`, `review.decisions.${DEMO_ENVIRONMENT}`])
    store.delete(key);
  return { interviews: interviewIds.length };
}
