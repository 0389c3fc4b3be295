import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { contract } from '../../../common/ipc/index';
import type { AppContextHandle } from '../../../main/app-context';
import { handlers } from '../../../main/ipc/handlers/index';
import { createRouter } from '../../../main/ipc/router';
import { startTestApp } from '../../helpers/app-context';
import { APP_SENDER, APP_URL } from '../../helpers/router-calls';

/**
 * Every IPC input that passes its channel's schema gets a typed answer. For each channel a valid input is found
 * from the schema's own complaints, then each of its leaves (and the object itself) is replaced by malformed and
 * boundary values: NUL bytes, lone surrogates, huge strings, prototype keys, malformed cursors. Every input the
 * schema lets through goes to the router of a running app; an untyped internal error (INTERNAL) is counted.
 */

/** A long poll that waits for the record's next notice by design. */
const SKIP = new Set(['team.changes']);
const HUGE = 'x'.repeat(200_000);
const NASTY: unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'demo-clean-pass\u0000',
  '\uD800',
  'a\uDFFFb',
  '\uFFFE',
  '🙂'.repeat(40),
  HUGE,
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../../../etc/passwd',
  '%00',
  'line\r\nInjected: 1',
  '1.0€',
  'eyJ',
  'not-a-cursor',
  'eyJhbGciOiJub25lIn0.e30.',
  -1,
  0,
  2 ** 53,
  1e308,
  -0,
  0.5,
  true,
  null,
  [],
  {},
  JSON.parse('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
];
const PLAUSIBLE: unknown[] = [
  'demo-clean-pass',
  'all',
  '00000000-0000-4000-8000-000000000000',
  { kind: 'file', base64: 'iVBORw0KGgo=', mimeType: 'image/png', name: 'a.png' },
  'custom',
  'notes',
  'x',
  'GODE561231GR8',
  'GODE561231HDFRRN09',
  'https://omni.example',
  1,
  true,
  {},
  [],
  ['demo-clean-pass'],
];

type Path = PropertyKey[];
const clone = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const out = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<PropertyKey, unknown>;
  const [head, ...rest] = path;
  out[head as string] = setAt(out[head as string] ?? (typeof rest[0] === 'number' ? [] : {}), rest, value);
  return out;
}
const samePath = (a: Path, b: Path) => a.length === b.length && a.every((p, i) => p === b[i]);

/** A valid input, found by answering each complaint of the schema in turn; undefined when none is found. */
function validInput(schema: z.ZodType): unknown {
  let value: unknown = {};
  for (let round = 0; round < 40; round++) {
    const result = schema.safeParse(value);
    if (result.success) return value;
    const issue = result.error.issues[0]!;
    const path = issue.path as Path;
    // An enum offers its values; a union its members' (zod 4 keeps them under `errors`).
    const members = (issue as { errors?: { values?: unknown[] }[][] }).errors?.flat() ?? [];
    const offered = [(issue as { values?: unknown[] }).values ?? [], ...members.map((m) => m.values ?? [])].flat();
    let fixed = false;
    for (const candidate of [...offered, ...PLAUSIBLE]) {
      const next = setAt(clone(value), path, clone(candidate));
      const again = schema.safeParse(next);
      if (again.success || !again.error.issues.some((i) => samePath(i.path as Path, path))) {
        value = next;
        fixed = true;
        break;
      }
    }
    if (!fixed) return undefined;
  }
  return undefined;
}

/** Every path to a leaf of a JSON value, the root included. */
function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, Array.isArray(value) ? Number(k) : k]));
  return out;
}

/** The inputs to try on one channel: each leaf replaced by each nasty value, plus prototype keys added. */
function mutations(base: unknown): unknown[] {
  const out: unknown[] = [];
  for (const path of paths(base)) for (const nasty of NASTY) out.push(setAt(clone(base), path, nasty));
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    out.push({ ...base, ...JSON.parse('{"__proto__":{"isAdmin":true}}') });
    out.push({ ...base, constructor: { prototype: { x: 1 } } });
    // A queue page's cursor, malformed every way (refused by the schema on every other channel).
    for (const nasty of NASTY) {
      out.push({ ...base, after: { key: nasty, interviewId: 'demo-clean-pass' } });
      out.push({ ...base, after: { key: 'added', interviewId: nasty } });
      out.push({ ...base, after: { key: null, interviewId: nasty } });
    }
  }
  return out;
}

const dataDir = mkdtempSync(join(tmpdir(), 'omni-ipc-fuzz-'));
let app: AppContextHandle;
const untyped: { channel: string; input: string; error: string }[] = [];
let router: ReturnType<typeof createRouter>;

beforeAll(async () => {
  app = await startTestApp(dataDir);
  router = createRouter({
    handlers,
    context: app.context,
    appUrl: APP_URL,
    onUnexpectedError: (channel, error) =>
      untyped.push({ channel, input: '', error: error instanceof Error ? error.message : String(error) }),
  });
  await router.handle('queue.addDemoSeeds', {}, APP_SENDER);
});
afterAll(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('every input that passes its schema gets a typed answer', () => {
  it('fuzzes every channel: 0 untyped errors', { timeout: 600_000 }, async () => {
    let accepted = 0;
    let tried = 0;
    const noValidInput: string[] = [];
    const internal: { channel: string; input: string }[] = [];
    for (const [domain, methods] of Object.entries(contract) as [string, Record<string, { input: z.ZodType }>][])
      for (const [method, def] of Object.entries(methods)) {
        const channel = `${domain}.${method}`;
        if (SKIP.has(channel)) continue;
        const base = validInput(def.input);
        if (base === undefined) {
          noValidInput.push(channel);
          continue;
        }
        for (const input of mutations(base)) {
          tried++;
          if (!def.input.safeParse(input).success) continue;
          accepted++;
          const result = await router.handle(channel, input, APP_SENDER);
          if (!result.ok && result.error.code === 'INTERNAL')
            internal.push({ channel, input: JSON.stringify(input).slice(0, 200) });
        }
      }
    // The count the issue asks for, and where any came from.
    console.info(`IPC fuzz: ${tried} inputs, ${accepted} passed their schema, ${internal.length} untyped errors`);
    if (noValidInput.length) console.info(`no valid input found for: ${noValidInput.join(', ')}`);
    expect(internal.map((i) => `${i.channel} ${i.input}`)).toEqual([]);
    expect(untyped).toEqual([]);
    expect(accepted).toBeGreaterThan(500);
  });
});
