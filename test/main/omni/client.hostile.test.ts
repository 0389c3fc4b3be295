import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../main/auth/memory-vault';
import { serviceDestination } from '../../../main/auth/destination';
import { createLogger, redactText } from '../../../main/log';
import { pageWords, parseAnswer, TOO_DEEP } from '../../../main/omni/answer-text';
import { OmniClient } from '../../../main/omni/client';
import { OmniError } from '../../../main/omni/omni-error';

/** Red team 17: answers of a hostile or broken service (or whatever answers in its place) read at the cost of their size. */
const E = serviceDestination({ id: 'e', baseUrl: 'https://omni.example/', authUrl: 'https://auth.example' });
const KEY = 'ak-live-7f3a9c1d5e2b4a60';

async function setup(answer: (url: string) => Response | Promise<Response>) {
  const vault = new MemoryVault();
  await vault.setCredential(E, 'apiKey', KEY);
  await vault.setCredential(E, 'integrationId', 'int-1234');
  await vault.setCredential(E, 'secret', 'sec-1234');
  const client = new OmniClient({
    env: {
      id: 'e',
      baseUrl: 'https://omni.example/',
      authUrl: 'https://auth.example',
      apiVersion: '1.0',
      tokenHeader: 'X-Incode-Hardware-Id',
    },
    vault,
    fetch: async (input) => {
      const url = String(input);
      return answer(url);
    },
    logger: createLogger({ sink: () => undefined }),
  });
  return client;
}
const token = () => Response.json({ token: 'server-1234' });
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('answered'),
    (e: unknown) => e as OmniError,
  );

describe('answers of a hostile service', () => {
  it('refuses a server token of megabytes as no token, before main holds it', async () => {
    const client = await setup((url) =>
      url.endsWith('/authorize/server') ? Response.json({ token: 't'.repeat(3_000_000) }) : Response.json({}),
    );
    const error = await failureOf(client.call('listApiKeys', {}));
    expect(error.code).toBe('SCHEMA_MISMATCH');
  });

  it('finds a long held secret whole', () => {
    const long = `tok-${'x7'.repeat(50_000)}`;
    expect(redactText(`before ${long} after`, [long])).toBe('before [redacted] after');
  });

  it('cuts JSON nested past the raw view’s depth where it passes it, without recursing', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    let value = parseAnswer(`{"ok":true,"extra":${deep}}`) as Record<string, unknown>;
    expect(value.ok).toBe(true);
    let depth = 1;
    for (let v: unknown = value.extra; typeof v === 'object' && v !== null; v = (v as { a: unknown }).a) depth++;
    expect(depth).toBe(64);
    value = value.extra as Record<string, unknown>;
    expect(JSON.stringify(value)).toContain(JSON.stringify(TOO_DEEP));
  });

  it('reads an answer with a field beyond the spec nested 100,000 deep, and a quirk beside it, whole', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const client = await setup((url) =>
      url.endsWith('/authorize/server')
        ? token()
        : new Response(
            `{"checkResults":[{"name":"faceTamperCheck","severity":"low","version":"3","result":"0.03"}],` +
              `"fraudRisk":null,"trace":${deep}}`,
            { headers: { 'content-type': 'application/json' } },
          ),
    );
    const read = await client.call('getRawIdvResults', { query: { id: 'i-1' } }, { interviewId: 'i-1' });
    expect(read.checkResults).toHaveLength(1);
    // Every later walk of it (a copy, the IPC's JSON, the redaction) follows 64 levels at most.
    expect(JSON.stringify(read)).toContain(JSON.stringify(TOO_DEEP));
  });

  it('reads a page’s words from its first 64 KiB, in one pass, unclosed tags and all', () => {
    expect(pageWords(`<html><title>Gateway</title><body>${'<a'.repeat(200_000)}`)).toMatch(/^Gateway/);
    expect(pageWords(`${' '.repeat(70_000)}<title>Too far</title>`)).toBe('');
    expect(pageWords('<script>var x = "<p>hidden</p>";</script><p>Shown</p><script>never closed')).toBe('Shown');
  });

  it('redacts a key the service echoed as HTML entities or JSON escapes', async () => {
    const escaped = KEY.replace(/-/g, '&#45;');
    const client = await setup((url) =>
      url.endsWith('/authorize/server')
        ? token()
        : url.includes('validate')
          ? new Response(`<html><body>Forbidden. key ${escaped}</body></html>`, { status: 403 })
          : Response.json({ message: `request was {"k":"${KEY.replace(/-/g, '\\u002d')}"}` }, { status: 400 }),
    );
    for (const call of [
      client.call('validateRfc', { body: { rfc: 'GODE561231GR8' } }),
      client.call('listApiKeys', {}),
    ]) {
      const shown = JSON.stringify((await failureOf(call)).toIpcError());
      expect(shown).not.toContain('7f3a9c1d5e2b4a60');
      expect(shown).toContain('[redacted]');
    }
  });

  it('says an answer fetch would not decode came from something other than the service, not the network', async () => {
    const client = await setup((url) => {
      if (url.endsWith('/authorize/server')) return token();
      throw new TypeError('fetch failed', {
        cause: new Error('too many content-encodings in response: 6, maximum allowed is 5'),
      });
    });
    const error = await failureOf(client.call('listApiKeys', {}));
    expect(error.code).toBe('NOT_THE_SERVICE');
    expect(error.toIpcError().details).toMatchObject({ serviceMessage: expect.stringContaining('content-encodings') });
  });
});

describe('echoes of a held secret, however written (red team 18)', () => {
  it('withholds a text that holds the key escaped, percent-encoded, or with invisible or look-alike characters', () => {
    const dashed = (by: string) => KEY.replace(/-/g, by);
    for (const echo of [
      dashed('&#00000045;'),
      dashed('&amp;#45;'),
      dashed('%2D'),
      [...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
      dashed('\\x2d'),
      dashed('\\u{2d}'),
      dashed('\u2011'),
      dashed('&ndash;'),
      KEY.replace('a', '\u0430').replace('e', '\u0435'),
      [...KEY].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
      [...KEY].join('\u200b'),
    ])
      expect(redactText(`key ${echo} refused`, [KEY])).toBe('[redacted]');
    expect(redactText('50% off & more', [KEY])).toBe('50% off & more');
    expect(redactText('Привет, ana', [KEY])).toBe('Привет, ana');
  });

  it('finds most of a long token cut by a gateway, and a repetitive one without growing each of its places', () => {
    const token = Array.from({ length: 2048 }, (_, i) => (i * 7919).toString(36).padStart(8, '0')).join('');
    expect(token.length).toBe(16_384);
    const cut = token.slice(0, Math.ceil(token.length * 0.9));
    expect(redactText(`hdr=${cut}`, [token])).toBe('hdr=[redacted]');
    const repetitive = 'ab'.repeat(8192);
    expect(redactText(`hdr=${repetitive.slice(0, 14_000)} end`, [repetitive])).toBe('hdr=[redacted] end');
  });
});

describe('answers and echoes that cost more than their size (red team 19)', () => {
  it('refuses an answer of more entries than any of the service’s before its contract is read', async () => {
    const client = await setup((url) =>
      url.endsWith('/authorize/server')
        ? token()
        : new Response(`{"checkResults":[${Array(400_000).fill('{}').join(',')}],"fraudRisk":null}`, {
            headers: { 'content-type': 'application/json' },
          }),
    );
    const error = await failureOf(client.call('getRawIdvResults', { query: { id: 'i-1' } }, { interviewId: 'i-1' }));
    expect(error.code).toBe('ANSWER_TOO_LARGE');
  });

  it('reads text full of JWT beginnings, near-misses of a long token and a repetitive token once each', () => {
    expect(redactText('-eyJ'.repeat(40_000), [])).toBe('-eyJ'.repeat(40_000));
    expect(redactText('see eyJhbGciOi.eyJzdWIiOiIx.c2ln and -eyJhbGciOi.eyJzdWIiOiIx.', [])).toBe(
      'see [redacted] and -[redacted]',
    );
    const token = Array.from({ length: 2048 }, (_, i) => (i * 7919).toString(36).padStart(8, '0')).join('');
    const nearMiss = `${token.slice(0, Math.floor(token.length * 0.74))} `.repeat(50);
    expect(redactText(nearMiss, [token])).toBe(nearMiss);
    const repetitive = 'a'.repeat(16_384);
    expect(redactText('a'.repeat(320_000), [repetitive])).not.toMatch(/a{16384}/);
  });
});

describe('a held secret echoed in base64 wrapped in lines (red team 19)', () => {
  it('is withheld, however MIME or PEM wrap it', () => {
    const wrap = (text: string, width: number, newline: string) =>
      text.match(new RegExp(`.{1,${width}}`, 'g'))!.join(newline);
    // A 16 KB server token: no line of its wrapped base64 holds most of it.
    const token = Array.from({ length: 2048 }, (_, i) => (i * 7919).toString(36).padStart(8, '0')).join('');
    const headers = { 'user-agent': 'Omni Reviewer', 'x-incode-hardware-id': token };
    const echoed = Buffer.from(JSON.stringify({ headers })).toString('base64');
    const readBack = (shown: string) => Buffer.from(shown.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
    for (const [width, newline] of [
      [76, '\r\n'],
      [64, '\n'],
      [40, '\n'],
    ] as const) {
      const shown = redactText(`echo\n${wrap(echoed, width, newline)}\nend`, [token]);
      expect(readBack(shown)).not.toContain(token.slice(0, 64));
    }
    expect(redactText('line one ends here\nline two', [token])).toBe('line one ends here\nline two');
  });
});
