import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Id, readElements, readUint, readVint } from '../../../main/demo-server/webm';
import { startHarness, type Harness } from '../../helpers/demo-support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function signedUrl(interviewId: string): Promise<string> {
  const client = await h.client();
  return (await client.call('getVideoSelfieUrl', { query: { interviewId } })).url;
}

/** The header of the element at `pos`, read without needing its data in the buffer. */
function headerAt(bytes: Uint8Array, pos: number) {
  const id = readVint(bytes, pos, true);
  const size = readVint(bytes, pos + id.length);
  const dataStart = pos + id.length + size.length;
  return { id: id.value, dataStart, dataEnd: dataStart + size.value };
}

async function range(
  url: string,
  value: string,
): Promise<{ status: number; contentRange: string | null; bytes: Uint8Array; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { range: value } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, contentRange: res.headers.get('content-range'), bytes, ms: performance.now() - started };
}

describe('demo server: the long videocall recording', () => {
  it('serves a 10-minute WebM whose index fits in its first 64 KB and whose middle is one quick 206 away', async () => {
    const url = await signedUrl('demo-long-video');
    const head = await range(url, 'bytes=0-65535');
    expect(head.status).toBe(206);
    const size = Number(head.contentRange?.split('/')[1]);
    expect(size).toBeGreaterThan(20 * 1024 * 1024);

    // What a demuxer does: read the SeekHead from the first bytes, find the Cues, then jump to the middle cluster.
    const segment = headerAt(head.bytes, headerAt(head.bytes, 0).dataEnd);
    expect(segment.id).toBe(Id.Segment);
    expect(segment.dataEnd).toBe(size);
    const segmentDataStart = segment.dataStart;
    const seekHead = headerAt(head.bytes, segmentDataStart);
    expect(seekHead.id).toBe(Id.SeekHead);
    const cuesAt = readElements(head.bytes, seekHead.dataStart, seekHead.dataEnd)
      .map((seek) => readElements(head.bytes, seek.dataStart, seek.dataEnd))
      .find(
        (fields) =>
          readUint(
            head.bytes,
            fields.find((f) => f.id === Id.SeekID)!,
          ) === Id.Cues,
      )!
      .find((f) => f.id === Id.SeekPosition)!;
    const cues = headerAt(head.bytes, segmentDataStart + readUint(head.bytes, cuesAt));
    expect(cues.id).toBe(Id.Cues);
    expect(cues.dataEnd).toBeLessThan(head.bytes.length);
    const points = readElements(head.bytes, cues.dataStart, cues.dataEnd).map((point) => {
      const fields = readElements(head.bytes, point.dataStart, point.dataEnd);
      const positions = fields.find((f) => f.id === Id.CueTrackPositions)!;
      const clusterPosition = readElements(head.bytes, positions.dataStart, positions.dataEnd).find(
        (f) => f.id === Id.CueClusterPosition,
      )!;
      return {
        time: readUint(
          head.bytes,
          fields.find((f) => f.id === Id.CueTime)!,
        ),
        position: readUint(head.bytes, clusterPosition),
      };
    });
    expect(points).toHaveLength(600);
    const middle = points.filter((p) => p.time <= 300_000).at(-1)!;
    expect(middle.time).toBeGreaterThan(299_000);

    const cluster = await range(
      url,
      `bytes=${segmentDataStart + middle.position}-${segmentDataStart + middle.position + 65_535}`,
    );
    expect(cluster.status).toBe(206);
    expect(cluster.contentRange).toBe(
      `bytes ${segmentDataStart + middle.position}-${segmentDataStart + middle.position + 65_535}/${size}`,
    );
    expect(readVint(cluster.bytes, 0, true).value).toBe(Id.Cluster);
    // A slice of an in-memory file: well under a second even on a loaded test machine.
    expect(cluster.ms).toBeLessThan(1000);
    expect(head.ms).toBeLessThan(1000);
  });

  it('keeps the 4-second clip for the other interviews', async () => {
    const clip = await range(await signedUrl('demo-clean-pass'), 'bytes=0-0');
    expect(clip.contentRange).toBe('bytes 0-0/164462');
  });
});

describe('demo server: /__demo/interviews', () => {
  type Listed = { interviewId: string; label: string; labelEs: string; organizationId: string };
  const list = async (query = '', headers: Record<string, string> = {}) => {
    const res = await fetch(`${h.server.url}/__demo/interviews${query}`, { headers });
    return { status: res.status, body: (await res.json()) as Listed[] & { message?: string } };
  };

  it('labels every interview in English and in Spanish', async () => {
    const { body } = await list();
    for (const i of body) {
      expect(i.label.length).toBeGreaterThan(3);
      expect(i.labelEs.length).toBeGreaterThan(3);
      expect(i.label).not.toBe(i.labelEs);
    }
    expect(body.find((i) => i.interviewId === 'demo-fraud-high')).toMatchObject({
      label: 'High fraud risk',
      labelEs: 'Riesgo de fraude alto',
    });
    expect(body.find((i) => i.interviewId === 'demo-long-video')).toMatchObject({
      label: 'Long videocall recording (10 minutes)',
    });
    const one = await (await fetch(`${h.server.url}/__demo/interviews/demo-closed`)).json();
    expect(one).toMatchObject({ label: 'Closed session', labelEs: 'Sesión cerrada' });
  });

  it("lists only the key's organization when an x-api-key is sent; every organization without one", async () => {
    const all = await list();
    expect(new Set(all.body.map((i) => i.organizationId))).toEqual(
      new Set(['org-financiera-demo', 'org-aseguradora-demo']),
    );

    const financiera = await list('', { 'x-api-key': 'demo-fin-crm-8a3e5d1c06' });
    expect(financiera.status).toBe(200);
    expect(financiera.body.length).toBe(all.body.filter((i) => i.organizationId === 'org-financiera-demo').length);
    expect(financiera.body.every((i) => i.organizationId === 'org-financiera-demo')).toBe(true);
    expect(financiera.body.some((i) => i.interviewId === 'demo-orgb-onboarding')).toBe(false);

    const aseguradora = await list('', { 'x-api-key': 'demo-ase-portal-9e6b3a0d58' });
    expect(aseguradora.body.map((i) => i.interviewId)).toEqual(['demo-orgb-onboarding']);

    expect((await list('?organizationId=org-aseguradora-demo')).body.map((i) => i.interviewId)).toEqual([
      'demo-orgb-onboarding',
    ]);
    expect(
      (await list('?organizationId=org-financiera-demo', { 'x-api-key': 'demo-fin-admin-4c1f9b2e7d' })).body,
    ).toEqual(financiera.body.map((i) => expect.objectContaining({ interviewId: i.interviewId })));
  });

  it('refuses an unknown or disabled key (401) and a key with another organization id (400)', async () => {
    const unknown = await list('', { 'x-api-key': 'not-a-key' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toMatch(/not known/);
    expect((await list('', { 'x-api-key': 'demo-fin-legacy-2b7f0a9e31' })).status).toBe(401);
    const conflict = await list('?organizationId=org-aseguradora-demo', { 'x-api-key': 'demo-fin-crm-8a3e5d1c06' });
    expect(conflict.status).toBe(400);
    expect(conflict.body.message).toMatch(/not the organization/);
  });
});
