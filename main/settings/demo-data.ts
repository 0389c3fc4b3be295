import type { Vault } from '../auth/vault';
import type { ReviewRecord } from '../record/index';

const DEMO_ENVIRONMENT = 'demo';

/**
 * Forgets what was done with the demo environment: its review queue (and the session tokens of its interviews), its
 * drafts and its decisions. Other environments are untouched, and so is the audit trail: it is append-only.
 */
export async function resetDemoData(record: ReviewRecord, vault: Vault): Promise<{ interviews: number }> {
  const interviewIds = await record.queue.clear(DEMO_ENVIRONMENT);
  for (const interviewId of interviewIds) await vault.clearSessionToken(DEMO_ENVIRONMENT, interviewId);
  await record.drafts.clear(DEMO_ENVIRONMENT);
  await record.decisions.clear(DEMO_ENVIRONMENT);
  return { interviews: interviewIds.length };
}
