import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStoreFile, openStores, snapshotJsonStore } from '../../main/json-store';
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
  const open = () => openStores(confNamed, pathOf, () => Date.UTC(2026, 10, 24, 9, 0, 0));

  it('opens the settings file; the review record is not in it (record/import-legacy.ts brings old files in)', () => {
    const { store, path, setAside } = open();
    store.set('vault', { items: { k: 'sealed' } });
    expect(path).toBe(pathOf('omni-reviewer'));
    expect(setAside).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ vault: { items: { k: 'sealed' } } });
    expect(open().store.keys()).toEqual(['vault']);
  });

  it('sets an unreadable settings file aside and says so', () => {
    writeFileSync(pathOf('omni-reviewer'), '{"vault": ');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const { store, setAside } = open();
    warn.mockRestore();
    expect(setAside).toEqual([
      { kind: 'settings', path: join(dir, 'omni-reviewer.unreadable-2026-11-24T09-00-00-000Z.json') },
    ]);
    expect(store.keys()).toEqual([]);
  });
});
