import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StagingTooLargeError } from '../errors';

/**
 * Files the user picked in the renderer, made available to main without passing their bytes through IPC.
 * Electron hands main the file's path (preload `webUtils.getPathForFile`); the web shell streams the upload
 * into a temp file. Either way main then refers to the file by an opaque id, never by a renderer-supplied path.
 */
export interface StagedFile {
  id: string;
  name: string;
  size: number;
  path: string;
  /** Temp files are ours to delete; a user's own file never is. */
  owned: boolean;
}

/** Largest file the web shell accepts into staging (the service states no limit; this keeps the disk safe). */
export const MAX_STAGED_BYTES = 4 * 1024 ** 3;

export class StagedFiles {
  private readonly files = new Map<string, StagedFile>();
  private dir: Promise<string> | undefined;

  constructor(private readonly root = tmpdir()) {}

  /** Registers a file that already exists on disk (Electron path from the picked File). */
  async registerPath(path: string): Promise<StagedFile> {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('Only regular files can be imported.');
    return this.add({ name: basename(path), size: info.size, path, owned: false });
  }

  /**
   * Writes an incoming stream to a temp file chunk by chunk (web shell upload). Rejects, deleting the partial
   * file, when the stream exceeds `maxBytes` or the signal aborts.
   */
  async receive(
    source: Readable,
    opts: { name: string; maxBytes?: number; signal?: AbortSignal },
  ): Promise<StagedFile> {
    const limit = opts.maxBytes ?? MAX_STAGED_BYTES;
    const dir = await this.tempDir();
    const path = join(dir, randomUUID());
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) done(new StagingTooLargeError(limit));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(path), { signal: opts.signal });
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    return this.add({ name: sanitizeName(opts.name), size, path, owned: true });
  }

  get(id: string): StagedFile | undefined {
    return this.files.get(id);
  }

  /** Forgets a staged file and deletes it when it was a temp copy. */
  async release(id: string): Promise<void> {
    const file = this.files.get(id);
    if (!file) return;
    this.files.delete(id);
    if (file.owned) await rm(file.path, { force: true });
  }

  /** At quit: every temp copy, and the folder that held them; the user's own files stay. */
  async releaseAll(): Promise<void> {
    await Promise.all([...this.files.keys()].map((id) => this.release(id)));
    const dir = this.dir;
    this.dir = undefined;
    if (dir) await rm(await dir, { recursive: true, force: true });
  }

  private add(file: Omit<StagedFile, 'id'>): StagedFile {
    const staged = { id: randomUUID(), ...file };
    this.files.set(staged.id, staged);
    return staged;
  }

  private tempDir(): Promise<string> {
    this.dir ??= mkdtemp(join(this.root, 'omni-staging-'));
    return this.dir;
  }
}

// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** Display name only: no directories, no control characters, bounded length. */
function sanitizeName(name: string): string {
  const clean = basename(name.replace(/\\/g, '/')).replace(CONTROL_CHARACTERS, '').trim();
  return (clean || 'file').slice(0, 200);
}
