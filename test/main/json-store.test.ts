import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DATA_FILES, openStoreFile, openStores, snapshotJsonStore } from '../../main/json-store';
import { log } from '../../main/log';

let dir: string;
const conf = () =>
  new Conf<Record<string, unknown>>({ projectName: 'omni-reviewer-test', cwd: dir, configName: 'store' });
const fileOf = () => JSON.parse(readFileSync(join(dir, 'store.json'), 'utf8')) as Record<string, unknown>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omni-json-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('snapshotJsonStore', () => {
  it('writes every change to the file at once, where a new start reads it back', () => {
    const store = snapshotJsonStore(conf());
    store.set('queue', { a: { state: 'toReview' } });
    store.set('drafts', ['x']);
    store.delete('drafts');
    expect(fileOf()).toEqual({ queue: { a: { state: 'toReview' } } });
    expect(snapshotJsonStore(conf()).get('queue')).toEqual({ a: { state: 'toReview' } });
  });

  it('answers reads from memory: the file is read once, not at every get', () => {
    const file = conf();
    file.store = { vault: { items: { k: 'v' } } };
    let reads = 0;
    // conf reads and parses the file each time its `store` is read.
    const counted = {
      path: file.path,
      get store() {
        reads++;
        return file.store;
      },
      set store(v) {
        file.store = v;
      },
    };
    const store = snapshotJsonStore(counted);
    for (let i = 0; i < 50; i++) expect(store.get('vault')).toEqual({ items: { k: 'v' } });
    store.set('other', 1);
    expect(reads).toBe(1);
  });

  it('hands out copies: editing what was read, or what was set, changes nothing stored', () => {
    const store = snapshotJsonStore(conf());
    const value = { entries: [1, 2] };
    store.set('k', value);
    value.entries.push(3);
    const read = store.get<{ entries: number[] }>('k')!;
    read.entries.push(4);
    expect(store.get('k')).toEqual({ entries: [1, 2] });
    expect(fileOf()).toEqual({ k: { entries: [1, 2] } });
  });

  it('peek() hands out the stored value itself, frozen at every depth, whether set here or read from the file', () => {
    const file = conf();
    file.store = { fromFile: { entries: [{ id: 'a' }] } };
    const store = snapshotJsonStore(file);
    store.set('set', { entries: [{ id: 'b' }] });
    for (const key of ['fromFile', 'set']) {
      const peeked = store.peek<{ entries: { id: string }[] }>(key)!;
      expect(store.peek(key)).toBe(peeked);
      expect(Object.isFrozen(peeked) && Object.isFrozen(peeked.entries) && Object.isFrozen(peeked.entries[0])).toBe(
        true,
      );
      expect(() => (peeked.entries as { id: string }[]).push({ id: 'c' })).toThrow(TypeError);
      // get() still gives a copy to change.
      const copy = store.get<{ entries: { id: string }[] }>(key)!;
      copy.entries.push({ id: 'c' });
      expect(store.peek<{ entries: unknown[] }>(key)!.entries).toHaveLength(1);
    }
  });

  it('stores what JSON keeps: undefined fields are dropped, setting undefined removes the key', () => {
    const store = snapshotJsonStore(conf());
    store.set('k', { a: 1, b: undefined });
    expect(store.get('k')).toEqual({ a: 1 });
    expect(Object.keys(store.get<object>('k')!)).toEqual(['a']);
    store.set('k', undefined);
    expect(store.get('k')).toBeUndefined();
    expect(fileOf()).toEqual({});
  });

  it('keeps what another process wrote to the same file when it writes next', async () => {
    const store = snapshotJsonStore(conf());
    store.set('mine', 1);
    // Another process (a second shell on the same data folder) writes a key of its own.
    await new Promise((r) => setTimeout(r, 20));
    writeFileSync(join(dir, 'store.json'), JSON.stringify({ mine: 1, theirs: 2 }));
    store.set('mine', 3);
    expect(fileOf()).toEqual({ mine: 3, theirs: 2 });
    expect(store.get('theirs')).toBe(2);
  });

  it('keeps memory as the disk has it when a write fails', () => {
    const file = conf();
    const store = snapshotJsonStore(file);
    store.set('k', 1);
    const failing = Object.create(file, {
      store: {
        get: () => file.store,
        set: () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    const broken = snapshotJsonStore(failing);
    expect(() => broken.set('k', 2)).toThrow('ENOSPC');
    expect(broken.get('k')).toBe(1);
    expect(fileOf()).toEqual({ k: 1 });
  });
});

describe('openStoreFile', () => {
  const path = () => join(dir, 'store.json');
  const at = () => Date.UTC(2026, 10, 23, 17, 5, 9, 120);

  it('opens a readable file as it is', () => {
    writeFileSync(path(), JSON.stringify({ queue: { a: 1 } }));
    const opened = openStoreFile(conf, path, at);
    expect(opened.setAsideAs).toBeUndefined();
    expect(opened.store.get('queue')).toEqual({ a: 1 });
  });

  it('sets an unreadable file aside, unchanged, and starts a new one', () => {
    writeFileSync(path(), '{"queue": {"a": ');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const opened = openStoreFile(conf, path, at);
    expect(opened.setAsideAs).toBe(join(dir, 'store.unreadable-2026-11-23T17-05-09-120Z.json'));
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('set aside'),
      expect.objectContaining({ setAsideAs: opened.setAsideAs }),
    );
    warn.mockRestore();
    expect(readFileSync(opened.setAsideAs!, 'utf8')).toBe('{"queue": {"a": ');
    expect(opened.store.get('queue')).toBeUndefined();
    expect(conf().store).toEqual({});
    opened.store.set('queue', { b: 2 });
    expect(fileOf()).toEqual({ queue: { b: 2 } });
  });

  it('leaves other failures alone: a folder it cannot read is not a reason to start over', () => {
    const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    expect(() =>
      openStoreFile(
        () => {
          throw denied;
        },
        path,
        at,
      ),
    ).toThrow(denied);
  });
});

describe('openStores', () => {
  const confNamed = (name: string) =>
    new Conf<Record<string, unknown>>({ projectName: 'omni-reviewer-test', cwd: dir, configName: name });
  const pathOf = (name: string) => join(dir, `${name}.json`);
  const read = (name: string) => JSON.parse(readFileSync(pathOf(name), 'utf8')) as Record<string, unknown>;
  const open = () => openStores(confNamed, pathOf, () => Date.UTC(2026, 10, 24, 9, 0, 0));

  it('keeps the queue, drafts and decisions each in a file of its own, and everything else in the settings file', () => {
    const { store, path, setAside } = open();
    store.set('review.queue.demo', { a: { localState: 'toReview' } });
    store.set('review.drafts.demo', { a: { notes: { text: 'x' } } });
    store.set('review.decisions.demo', { a: [{ decision: 'approve' }] });
    store.set('vault', { items: { k: 'sealed' } });
    expect(path).toBe(pathOf('omni-reviewer'));
    expect(setAside).toEqual([]);
    expect(read('omni-reviewer')).toEqual({ vault: { items: { k: 'sealed' } } });
    expect(read('omni-reviewer-queue')).toEqual({ 'review.queue.demo': { a: { localState: 'toReview' } } });
    expect(read('omni-reviewer-drafts')).toEqual({ 'review.drafts.demo': { a: { notes: { text: 'x' } } } });
    expect(read('omni-reviewer-decisions')).toEqual({ 'review.decisions.demo': { a: [{ decision: 'approve' }] } });
    expect(open().store.get('review.drafts.demo')).toEqual({ a: { notes: { text: 'x' } } });
  });

  it('a draft saved while typing rewrites only the drafts file, not the queue or the credentials', () => {
    const { store } = open();
    store.set('review.queue.demo', { a: 1 });
    store.set('vault', { items: {} });
    const before = ['omni-reviewer', 'omni-reviewer-queue'].map((name) => statSync(pathOf(name)).mtimeMs);
    store.set('review.drafts.demo', { a: { notes: { text: 'typed' } } });
    expect(['omni-reviewer', 'omni-reviewer-queue'].map((name) => statSync(pathOf(name)).mtimeMs)).toEqual(before);
  });

  it('moves what an earlier version kept in the settings file to its own file, once', () => {
    writeFileSync(
      pathOf('omni-reviewer'),
      JSON.stringify({
        vault: { v: 1 },
        'review.queue.demo': { a: 1 },
        'review.drafts.prod': { b: 2 },
        'review.decisions.demo': { c: [] },
      }),
    );
    const { store } = open();
    expect(read('omni-reviewer')).toEqual({ vault: { v: 1 } });
    expect(read('omni-reviewer-queue')).toEqual({ 'review.queue.demo': { a: 1 } });
    expect(read('omni-reviewer-drafts')).toEqual({ 'review.drafts.prod': { b: 2 } });
    expect(store.get('review.decisions.demo')).toEqual({ c: [] });
    expect(open().store.get('review.queue.demo')).toEqual({ a: 1 });
  });

  it("a move interrupted after the data file was written keeps that file's copy and finishes the move", () => {
    writeFileSync(pathOf('omni-reviewer'), JSON.stringify({ vault: { v: 1 }, 'review.queue.demo': { a: 'old' } }));
    writeFileSync(pathOf('omni-reviewer-queue'), JSON.stringify({ 'review.queue.demo': { a: 'newer' } }));
    const { store } = open();
    expect(store.get('review.queue.demo')).toEqual({ a: 'newer' });
    expect(read('omni-reviewer')).toEqual({ vault: { v: 1 } });
  });

  it('sets an unreadable data file aside and says which, keeping the other files as they were', () => {
    writeFileSync(pathOf('omni-reviewer'), JSON.stringify({ vault: { v: 1 } }));
    writeFileSync(pathOf('omni-reviewer-queue'), '{"review.queue.demo": ');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const { store, setAside } = open();
    warn.mockRestore();
    expect(setAside).toEqual([
      { kind: 'queue', path: join(dir, 'omni-reviewer-queue.unreadable-2026-11-24T09-00-00-000Z.json') },
    ]);
    expect(readFileSync(setAside[0]!.path, 'utf8')).toBe('{"review.queue.demo": ');
    expect(store.get('review.queue.demo')).toBeUndefined();
    expect(store.get('vault')).toEqual({ v: 1 });
  });

  it('routes by prefix only: a key that merely contains a data prefix stays in the settings file', () => {
    const { store } = open();
    store.set('preferences.review.queue.demo', 1);
    expect(read('omni-reviewer')).toEqual({ 'preferences.review.queue.demo': 1 });
    expect(DATA_FILES.map((f) => f.kind)).toEqual(['queue', 'drafts', 'decisions']);
  });
});
