import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaptureAttemptsLimit, RecordingType } from '../../common/omni';
import type { DemoProfile } from './production-profile';
import { customers, interviews, type InterviewSeed } from './seed';

export interface StoredRecording {
  recordingId: string;
  type: RecordingType | null;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  createdAt: string;
  file: string;
}

export interface InterviewState extends InterviewSeed {
  name?: string;
  notes: Array<{ text: string; at: string }>;
  backIdUploads: number;
  selfieUploaded: boolean;
  recordings: StoredRecording[];
}

export interface Fault {
  kind: 'status' | 'delay' | 'reset' | 'malformed' | 'html' | 'json';
  status?: number;
  delayMs?: number;
  /** Seconds a 429 or 503 asks the client to wait (default 2). */
  retryAfterS?: number;
  /** The answer of a `json` fault, as given. */
  body?: unknown;
  /** `html` or `reset` only after the call was applied: the service stored it, its answer is lost on the way. */
  after?: boolean;
  remaining: number;
}

/** Everything a call can change; `reset()` puts it back to the seed. */
export class DemoState {
  interviews = new Map<string, InterviewState>();
  customerAttempts = new Map<string, CaptureAttemptsLimit>();
  faults = new Map<string, Fault[]>();
  /** Writes seen with an Idempotency-Key, and their answers: a repeat is answered again, not applied again. */
  idempotent = new Map<string, unknown>();
  /** How the endpoints answer; `/__demo/profile` switches it, a reset returns to the one the server started with. */
  profile: DemoProfile;
  private nextFolio = 1;

  constructor(
    readonly recordingsDir: string,
    readonly startProfile: DemoProfile = 'spec',
  ) {
    this.profile = startProfile;
    this.seed();
  }

  private seed(): void {
    this.interviews = new Map(
      interviews.map((seed) => [
        seed.id,
        { ...structuredClone(seed), notes: [], backIdUploads: 0, selfieUploaded: false, recordings: [] },
      ]),
    );
    this.customerAttempts = new Map(customers.filter((c) => c.attempts).map((c) => [c.hint, { ...c.attempts! }]));
    this.faults = new Map();
    this.idempotent = new Map();
    this.profile = this.startProfile;
  }

  async reset(): Promise<void> {
    this.seed();
    await rm(this.recordingsDir, { recursive: true, force: true });
  }

  /** Unique confirmation folios, never reused in a process even across resets. */
  folio(prefix: string): string {
    return `${prefix}-${String(this.nextFolio++).padStart(8, '0')}`;
  }

  async storeRecording(
    interview: InterviewState,
    recording: Omit<StoredRecording, 'file'>,
    bytes: Buffer,
  ): Promise<StoredRecording> {
    await mkdir(this.recordingsDir, { recursive: true });
    const file = join(this.recordingsDir, `${recording.recordingId}.bin`);
    await writeFile(file, bytes);
    const stored = { ...recording, file };
    interview.recordings.push(stored);
    return stored;
  }

  takeFault(route: string): Fault | undefined {
    const queue = this.faults.get(route);
    const fault = queue?.[0];
    if (!queue || !fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) queue.shift();
    if (queue.length === 0) this.faults.delete(route);
    return fault;
  }
}
