import { describe, expect, it } from 'vitest';
import { MediaRegistryError } from '../../../main/errors';
import { createMediaStore } from '../../../main/media/registry';
import type { MainContext } from '../../../main/ports';
import type { InterviewReads } from '../../../main/review/interview-reads';
import { InterviewMedia } from '../../../main/review/media';

/**
 * Red team 12, finding 10: the same link handed out again (a stable or CDN link) gets a URL that works now, not the
 * first one read, whose signature ran out after 30 minutes or whose registry entry was dropped by the bound.
 */
const TTL_MS = 30 * 60 * 1000;

function setup(opts: { baseUrl?: string; videoUrl?: string; maxEntries?: number } = {}) {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  // As the web shell signs its media route: the id, and when the signature runs out.
  const media = createMediaStore({
    urlFor: (id) => `/media/${id}?exp=${clock + TTL_MS}`,
    maxEntries: opts.maxEntries ?? 500,
    resolveHost: async () => ['93.184.215.14'],
  });
  const videoUrl = opts.videoUrl ?? 'https://cdn.example/selfie.webm';
  const ctx = {
    media,
    environments: { active: () => ({ baseUrl: opts.baseUrl ?? 'https://api.service.example/v1' }) },
    omni: () => ({ call: async () => ({ url: videoUrl }) }),
  } as unknown as MainContext;
  const reads = {
    stamp: <T>(v: T) => ({ data: v }),
    contractLinks: async () => ({ additionalInformation: { 'doc-1': 'https://cdn.example/doc-1.pdf' } }),
  } as unknown as InterviewReads;
  const interviewMedia = new InterviewMedia(ctx, reads, () => new Date(clock));
  const parse = (url: string) => {
    const [path, query] = url.split('?');
    return { id: path!.slice('/media/'.length), exp: Number(new URLSearchParams(query).get('exp')) };
  };
  return {
    media,
    interviewMedia,
    parse,
    advance: (ms: number) => (clock += ms),
    now: () => clock,
    videoUrl: async () => ((await interviewMedia.video('i-1')).data as { url: string }).url,
  };
}

describe('interview media URLs', () => {
  it('signs the same link anew at each read, on the same entry', async () => {
    const { parse, advance, now, videoUrl } = setup();
    const first = parse(await videoUrl());
    advance(31 * 60 * 1000);
    const later = parse(await videoUrl());
    expect(later.id).toBe(first.id);
    expect(later.exp).toBe(now() + TTL_MS);
    expect(later.exp).toBeGreaterThan(now());
  });

  it('hands out a live entry after the registry’s bound dropped the first one', async () => {
    const { media, parse, videoUrl } = setup({ maxEntries: 3 });
    const first = parse(await videoUrl());
    for (let i = 0; i < 5; i++) media.register(`https://cdn.example/other-${i}.webm`, {});
    expect(media.lookup(first.id)).toBeUndefined();
    const again = parse(await videoUrl());
    expect(media.lookup(again.id)?.remoteUrl).toBe('https://cdn.example/selfie.webm');
    // One entry per link: reading it again does not fill the registry.
    await videoUrl();
    expect(parse(await videoUrl()).id).toBe(again.id);
  });

  it('keeps a link read again among the newest, so links in use are not the ones dropped', async () => {
    const { media, parse, videoUrl } = setup({ maxEntries: 3 });
    const first = parse(await videoUrl());
    media.register('https://cdn.example/a.webm', {});
    media.register('https://cdn.example/b.webm', {});
    await videoUrl();
    media.register('https://cdn.example/c.webm', {});
    expect(media.lookup(first.id)).toBeDefined();
  });

  it('takes the environment’s service origin as the one place on this computer media may come from (the demo)', async () => {
    const demo = setup({
      baseUrl: 'http://127.0.0.1:4010',
      videoUrl: 'http://127.0.0.1:4010/files/video-selfies/i-1.webm?sig=x',
    });
    const { id } = demo.parse(await demo.videoUrl());
    expect(demo.media.lookup(id)).toMatchObject({ serviceOrigin: 'http://127.0.0.1:4010' });

    const elsewhere = setup({ baseUrl: 'http://127.0.0.1:4010', videoUrl: 'http://127.0.0.1:22/' });
    await expect(elsewhere.videoUrl()).rejects.toThrow(MediaRegistryError);
    const remote = setup({ baseUrl: 'https://api.service.example', videoUrl: 'http://169.254.169.254/latest/' });
    await expect(remote.videoUrl()).rejects.toThrow(MediaRegistryError);
  });
});
