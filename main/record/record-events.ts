import pg, { type Notification, type PoolConfig } from 'pg';
import { RESYNC_NOTICE, RecordNotice } from '../../common/team-review';

/** The channel the record's triggers announce on (migrations/0003-team-review.ts, record_notify). */
export const NOTICE_CHANNEL = 'omni_record';
const RECONNECT_EVERY_MS = 1_000;

/** Claims, decisions and queue changes as the record announces them, whoever made them. */
export interface RecordEvents {
  /** Calls `fn` with every notice from now on; the function returned stops it. */
  subscribe(fn: (notice: RecordNotice) => void): () => void;
  /**
   * Resolves once notices are heard (on a server, when the listening connection is up again after an absence): what
   * is read after it cannot miss a change announced later.
   */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/**
 * On a team's server: a connection of its own, only for LISTEN (a pooled one goes back to the pool and stops
 * hearing). Opened at the first subscriber; when the server goes away it is opened again, every second, until it is
 * back. Notices made while it was away are not heard: subscribers are told so (RESYNC_NOTICE) and read again.
 */
export function listenOnServer(connection: PoolConfig, retryEveryMs = RECONNECT_EVERY_MS): RecordEvents {
  const fanOut = subscribers();
  let client: pg.Client | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let heard = false;
  let heardBefore = false;
  const waiting: (() => void)[] = [];

  function again() {
    client = undefined;
    heard = false;
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryEveryMs);
    retry.unref?.();
  }

  async function connect() {
    const c = new pg.Client(connection);
    client = c;
    c.on('notification', fanOut.hear);
    c.on('error', () => c.end().catch(() => undefined));
    c.on('end', () => {
      if (client === c) again();
    });
    try {
      await c.connect();
      await c.query(`listen ${NOTICE_CHANNEL}`);
      heard = client === c;
      if (!heard) return;
      for (const resolve of waiting.splice(0)) resolve();
      // Heard again after an absence: whatever was announced meanwhile went unheard.
      if (heardBefore) fanOut.tell(RESYNC_NOTICE);
      heardBefore = true;
    } catch {
      await c.end().catch(() => undefined);
      if (client === c) again();
    }
  }

  const start = () => {
    if (!client && !retry && !closed) void connect();
  };
  return {
    subscribe(fn) {
      start();
      return fanOut.add(fn);
    },
    listening() {
      start();
      return heard ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      fanOut.clear();
      for (const resolve of waiting.splice(0)) resolve();
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * On the embedded engine, which takes one connection at a time: LISTEN on the pool's connection itself, each time
 * the pool opens it. Every change comes from this app, through that connection, and PostgreSQL tells a session of
 * its own notices too, so nothing is missed while the pool keeps no connection open.
 */
export function listenOnPool(pool: pg.Pool): RecordEvents {
  const fanOut = subscribers();
  const onConnect = (client: pg.PoolClient) => {
    client.on('notification', fanOut.hear);
    // Queued before the first query the pool hands this connection to.
    client.query(`listen ${NOTICE_CHANNEL}`).catch(() => undefined);
  };
  pool.on('connect', onConnect);
  return {
    subscribe: fanOut.add,
    // The LISTEN goes first on every connection the pool opens, before any query that could announce something.
    listening: () => Promise.resolve(),
    async close() {
      pool.off('connect', onConnect);
      fanOut.clear();
    },
  };
}

function subscribers() {
  const listeners = new Set<(notice: RecordNotice) => void>();
  const tell = (notice: RecordNotice) => {
    for (const fn of listeners) fn(notice);
  };
  return {
    add(fn: (notice: RecordNotice) => void) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
    clear: () => listeners.clear(),
    hear(message: Notification) {
      if (message.channel !== NOTICE_CHANNEL || !message.payload) return;
      let payload: unknown;
      try {
        payload = JSON.parse(message.payload);
      } catch {
        return;
      }
      // Any login may notify on the channel: a notice that is not the record's shape is dropped.
      const notice = RecordNotice.safeParse(payload);
      if (notice.success) tell(notice.data);
    },
    tell,
  };
}
