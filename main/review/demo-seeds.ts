import { demoRoutes } from '../demo-client';
import type { MainContext } from '../ports';
import type { AddResult, DemoSeed } from '../../common/ipc/queue';
import { InterviewId, SessionToken } from '../../common/ipc/queue';
import { SessionStatus } from '../../common/omni';
import { ReviewError } from '../errors';
import type { Logger } from '../log';
import type { ReviewQueue } from './queue';

/** The demo server's interviews, offered for the queue while the demo environment is active. */
export class DemoSeeds {
  constructor(
    private readonly ctx: MainContext,
    private readonly queue: ReviewQueue,
  ) {}

  /**
   * The demo server lists only the caller's organization when it gets an API key: the key is read from the vault
   * here in main (never sent to the renderer), so another organization's interviews are not offered.
   */
  private async fetchDemoSeeds(): Promise<(DemoSeed & { sessionToken?: string })[]> {
    const env = this.ctx.environments.active();
    if (env.kind !== 'demo') return [];
    let body: unknown;
    try {
      const apiKey = await this.ctx.vault.getCredential(env.id, 'apiKey');
      body = await demoRoutes(env.baseUrl).interviews(apiKey ?? undefined);
    } catch {
      throw new ReviewError(
        'DEMO_UNAVAILABLE',
        {
          en: 'The demo server did not list its interviews.',
          es: 'El servidor de demostración no listó sus entrevistas.',
        },
        {
          en: 'Restart the app; the demo server starts with it.',
          es: 'Reinicia la aplicación; el servidor de demostración arranca con ella.',
        },
        { retryable: true },
      );
    }
    if (!Array.isArray(body)) return [];
    const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
    return body.flatMap((raw) => {
      const r = raw as Record<string, unknown>;
      const id = InterviewId.safeParse(r.interviewId);
      const status = SessionStatus.safeParse(r.sessionStatus);
      if (!id.success || !status.success) return [];
      const token = SessionToken.safeParse(r.sessionToken);
      const labelEs = text(r.labelEs);
      return [
        {
          interviewId: id.data,
          sessionStatus: status.data,
          label: text(r.label) ?? id.data,
          ...(labelEs ? { labelEs } : {}),
          inQueue: false,
          ...(token.success ? { sessionToken: token.data } : {}),
        },
      ];
    });
  }

  async list(): Promise<DemoSeed[]> {
    const seeds = await this.fetchDemoSeeds();
    const queued = new Set((await this.queue.list()).map((e) => e.interviewId));
    return seeds.map(({ sessionToken: _token, ...seed }) => ({ ...seed, inQueue: queued.has(seed.interviewId) }));
  }

  async add(ids?: string[]): Promise<AddResult> {
    const seeds = await this.fetchDemoSeeds();
    const wanted = ids ? seeds.filter((s) => ids.includes(s.interviewId)) : seeds;
    return this.queue.add(wanted.map(({ inQueue: _inQueue, ...seed }) => seed));
  }
}

/**
 * Puts the demo's interviews in the queue of a first run. A demo server that does not answer leaves the queue empty
 * (the add panel still offers them) rather than stopping the start.
 */
export async function seedDemoQueue(seeds: DemoSeeds, log: Logger): Promise<void> {
  try {
    const { added } = await seeds.add();
    log.info('A first run on the demo: its interviews were put in the queue', { interviews: added.length });
  } catch (error) {
    log.warn('A first run on the demo: its interviews could not be put in the queue', {
      code: error instanceof ReviewError ? error.data.code : 'unexpected',
    });
  }
}
