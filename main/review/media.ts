import type { MainContext } from '../ports';
import { originOf } from '../media/address';
import { unreadFieldsOf, type ContractLinksResponse } from '../../common/omni';
import { redactText } from '../log';
import { serviceAnswer } from '../omni/answer';
import type { ContractSeal, ContractsView, Fetched, VideoLink } from '../../common/ipc/interview';
import { ReviewError } from '../errors';
import { errorData } from './errors';
import type { InterviewReads } from './interview-reads';
import { personOf } from './person';
import { videoUrlExpiry } from './video';

/**
 * The contracts the app can open, and the ids of the others: a link the contract cannot read (not http(s)) is set
 * aside by the reader, and an id that echoes a held secret never names a file or a screen (red team 18). Both are
 * named, ids redacted, on the contracts panel and in an evidence file, never left out as if there were none.
 */
export function contractsToOpen(res: ContractLinksResponse): { links: [string, string][]; unreadable: string[] } {
  const listed = Object.entries(res.additionalInformation ?? {});
  const setAside = unreadFieldsOf(res)['additionalInformation'];
  return {
    links: listed.filter(([id]) => redactText(id) === id),
    unreadable: [
      ...listed.filter(([id]) => redactText(id) !== id).map(([id]) => id),
      ...(setAside !== null && typeof setAside === 'object' ? Object.keys(setAside) : []),
    ].map((id) => redactText(id)),
  };
}

/** An interview's contracts and video, served to the screens as app media URLs, and what the analyst plays. */
export class InterviewMedia {
  constructor(
    private readonly ctx: MainContext,
    private readonly reads: InterviewReads,
    private readonly now: () => Date,
  ) {}

  /**
   * The media route passes the remote content type through (the demo video is WebM, production may differ). Registered
   * at every read: the registry keeps one entry per link and hands its URL out signed anew, so a link read again is
   * never one whose signature ran out or whose entry the registry's bound dropped. The service's origin is the one
   * place on this computer or its network media may come from (the embedded demo, on 127.0.0.1).
   */
  private registerMedia(remoteUrl: string, refresh: () => Promise<string>): string {
    const serviceOrigin = originOf(this.ctx.environments.active().baseUrl);
    return this.ctx.media.register(remoteUrl, { refresh, ...(serviceOrigin ? { serviceOrigin } : {}) });
  }

  async contracts(interviewId: string): Promise<Fetched<ContractsView>> {
    const res = await this.reads.contractLinks(interviewId);
    const { links, unreadable } = contractsToOpen(res);
    const seals = await this.latestSeals(links.map(([documentId]) => documentId));
    const documents = links.map(([documentId, remote]) => ({
      documentId,
      ...(seals.has(documentId) ? { seal: seals.get(documentId)! } : {}),
      url: this.registerMedia(remote, async () => {
        const fresh = (await this.reads.contractLinks(interviewId)).additionalInformation?.[documentId];
        if (!fresh)
          throw new ReviewError('CONTRACT_GONE', {
            en: `Contract ${documentId} is no longer listed for this interview.`,
            es: `El contrato ${documentId} ya no aparece en esta entrevista.`,
          });
        return fresh;
      }),
    }));
    return this.reads.stamp({
      ...(res.sessionStatus ? { sessionStatus: res.sessionStatus } : {}),
      documents,
      ...(unreadable.length > 0 ? { unreadable } : {}),
      answer: serviceAnswer('getContractLinks', res),
    });
  }

  /**
   * Each listed contract's latest seal in this environment, read from the trail (service.ts writes one `signed` entry
   * per seal, with no interview). One indexed query for the whole list: its cost grows with this environment's
   * contract seals, not with the trail (audit-records.ts, which keeps only entries whose id is exactly the one asked
   * for). Their other fields are taken only when they hold the expected types: a detail can be redacted or junk, and
   * the screen shows it as text.
   */
  private async latestSeals(contractIds: string[]): Promise<Map<string, ContractSeal>> {
    const seals = new Map<string, ContractSeal>();
    if (contractIds.length === 0) return seals;
    const entries = await this.ctx.audit.latestContractSeals(this.ctx.environments.active().id, contractIds);
    for (const id of contractIds) {
      const entry = entries.get(id);
      if (!entry) continue;
      const { folio, valid } = entry.detail;
      seals.set(id, {
        folio: typeof folio === 'string' && folio.length > 0 ? folio : null,
        at: entry.at,
        valid: valid === true,
        // Whose, where a team shares the trail; on this computer's record it is always this person's.
        ...(entry.actor && this.ctx.record.engine !== 'embedded' ? { by: personOf(this.ctx)(entry.actor) } : {}),
      });
    }
    return seals;
  }

  /**
   * A 400 here is how the service says it has no recording to give (decisions.md §4); that is the panel's empty
   * state, with the service's own words, not an error. Any other failure stays an error with a retry.
   */
  async video(interviewId: string): Promise<Fetched<VideoLink | { unavailable: string }>> {
    const issued = this.now();
    let res;
    try {
      res = await this.ctx
        .omni()
        .call('getVideoSelfieUrl', { query: { interviewId }, body: undefined }, { interviewId });
    } catch (err) {
      const data = errorData(err);
      if (data.httpStatus !== 400) throw err;
      const said = data.details?.serviceMessage;
      return this.reads.stamp({ unavailable: typeof said === 'string' ? said : data.message.en });
    }
    const url = this.registerMedia(
      res.url,
      async () =>
        (await this.ctx.omni().call('getVideoSelfieUrl', { query: { interviewId }, body: undefined }, { interviewId }))
          .url,
    );
    return this.reads.stamp({
      url,
      issuedAt: issued.toISOString(),
      expiresAt: videoUrlExpiry(res.url, issued).toISOString(),
      answer: serviceAnswer('getVideoSelfieUrl', res),
    });
  }

  async recordPlay(interviewId: string, positionSeconds: number) {
    await this.ctx.audit.append({
      interviewId,
      action: 'played',
      detail: { positionSeconds: Math.round(positionSeconds * 10) / 10 },
    });
    return { ok: true as const };
  }
}
