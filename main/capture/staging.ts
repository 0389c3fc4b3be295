import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StagingLimitError, StagingTooLargeError } from '../errors';
import { plainText } from '../plain-text';
import { fileReleased } from './file-chunks';

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
/** Uploads one session holds at once (waiting to be imported, or being received): a key holder cannot fill the disk. */
export const MAX_STAGED_FILES = 8;
/** Bytes of those together. */
export const MAX_STAGED_TOTAL_BYTES = 8 * 1024 ** 3;

const DIR_PREFIX = 'omni-staging-';
/** The process that owns a staging folder, so a later start can tell a crashed run's folder from a live one's. */
const OWNER_FILE = '.owner-pid';

/** An upload that sends nothing for this long is dropped (its slot freed); a slow one that keeps sending is not. */
export const STAGING_IDLE_MS = 60_000;

/** The upload sent no bytes for `idleMs`. */
export class StagingStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`The upload sent nothing for ${idleMs} ms.`);
    this.name = 'StagingStalledError';
  }
}

export interface StagingLimits {
  maxFiles?: number;
  maxTotalBytes?: number;
}

export class StagedFiles {
  private readonly files = new Map<string, StagedFile>();
  private dir: Promise<string> | undefined;
  /** Uploads being received now, and their bytes so far. */
  private readonly receiving = new Map<symbol, number>();
  /** Temp copies released while an import still reads them: still on disk, so still counted, until it ends. */
  private readonly draining = new Set<StagedFile>();
  private readonly maxFiles: number;
  private readonly maxTotalBytes: number;

  constructor(
    private readonly root = tmpdir(),
    limits: StagingLimits = {},
  ) {
    this.maxFiles = limits.maxFiles ?? MAX_STAGED_FILES;
    this.maxTotalBytes = limits.maxTotalBytes ?? MAX_STAGED_TOTAL_BYTES;
  }

  /** Bytes of this session's own temp copies and of the uploads under way. */
  private heldBytes(): number {
    let total = 0;
    for (const f of this.files.values()) if (f.owned) total += f.size;
    for (const n of this.receiving.values()) total += n;
    for (const f of this.draining) total += f.size;
    return total;
  }

  private heldCount(): number {
    let n = this.receiving.size + this.draining.size;
    for (const f of this.files.values()) if (f.owned) n++;
    return n;
  }

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
    opts: { name: string; maxBytes?: number; signal?: AbortSignal; idleMs?: number },
  ): Promise<StagedFile> {
    const limit = opts.maxBytes ?? MAX_STAGED_BYTES;
    if (this.heldCount() >= this.maxFiles) {
      source.resume();
      throw new StagingLimitError('files', this.maxFiles);
    }
    const upload = Symbol('upload');
    this.receiving.set(upload, 0);
    const held = () => this.heldBytes();
    const maxTotal = this.maxTotalBytes;
    const receiving = this.receiving;
    try {
      const dir = await this.tempDir();
      const path = join(dir, randomUUID());
      let size = 0;
      const idleMs = opts.idleMs ?? STAGING_IDLE_MS;
      const stall = new AbortController();
      let idle: NodeJS.Timeout | undefined;
      const watch = () => {
        clearTimeout(idle);
        idle = setTimeout(() => stall.abort(new StagingStalledError(idleMs)), idleMs);
      };
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          watch();
          size += chunk.length;
          receiving.set(upload, size);
          if (size > limit) done(new StagingTooLargeError(limit));
          else if (held() > maxTotal) done(new StagingLimitError('bytes', maxTotal));
          else done(null, chunk);
        },
      });
      const signal = opts.signal ? AbortSignal.any([opts.signal, stall.signal]) : stall.signal;
      try {
        watch();
        await pipeline(source, counter, createWriteStream(path), { signal });
      } catch (err) {
        await rm(path, { force: true });
        throw stall.signal.aborted ? stall.signal.reason : err;
      } finally {
        clearTimeout(idle);
      }
      return this.add({ name: sanitizeName(opts.name), size, path, owned: true });
    } finally {
      this.receiving.delete(upload);
    }
  }

  get(id: string): StagedFile | undefined {
    return this.files.get(id);
  }

  /**
   * Forgets a staged file and deletes it when it was a temp copy. A copy an import is reading is deleted when the
   * import ends, and counts against the limits until then: deleting it now would not free the disk (the import holds
   * it open) and would break the import.
   */
  async release(id: string): Promise<void> {
    const file = this.files.get(id);
    if (!file) return;
    this.files.delete(id);
    if (!file.owned) return;
    const reading = fileReleased(file.path);
    if (!reading) {
      await rm(file.path, { force: true });
      return;
    }
    this.draining.add(file);
    void reading
      .then(() => rm(file.path, { force: true }))
      .catch(() => undefined)
      .finally(() => this.draining.delete(file));
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
    this.dir ??= mkdtemp(join(this.root, DIR_PREFIX)).then(async (dir) => {
      await writeFile(join(dir, OWNER_FILE), String(process.pid), { mode: 0o600 });
      return dir;
    });
    return this.dir;
  }
}

/**
 * At start: the staging folders a run left behind when it ended without closing (a crash, a kill). A folder whose
 * owner process still runs (another window, another shell) is left alone. How many were removed.
 */
export async function removeLeftoverStaging(root = tmpdir()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(DIR_PREFIX)) continue;
    const dir = join(root, name);
    try {
      const owner = Number(await readFile(join(dir, OWNER_FILE), 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) continue;
      const info = await stat(dir);
      if (process.getuid && info.uid !== process.getuid()) continue;
    } catch {
      // No owner file (yet, or not ours): left alone.
      continue;
    }
    await rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Display name only: no directories, no control or direction-override characters, bounded length. */
function sanitizeName(name: string): string {
  return plainText(basename(name.replace(/\\/g, '/')), 200).trim() || 'file';
}
