import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

/** What the fake server saw. */
export interface FakeServer {
  port: number;
  /** SSLRequests received: the client asked for TLS before anything else. */
  sslRequests: number;
  /** Handshakes that went through (the client accepted the certificate). */
  handshakes: number;
  /** What the client sent after its startup message, as the server read it (decrypted): a password, if any. */
  afterStartup: Buffer[];
  close(): Promise<void>;
}

/**
 * A PostgreSQL server of a few lines that asks every client for its password in clear text and keeps what it is sent
 * after its startup message: what a client would give away to whoever answers at the address. A client that asks for
 * TLS first (SSLRequest) is answered `ssl`: 'S' then TLS with this certificate (PEM), or 'N' (no TLS here).
 */
export async function fakePostgres(mode: { ssl: 'S'; cert: string; key: string } | { ssl: 'N' }): Promise<FakeServer> {
  const sockets = new Set<Socket>();
  const fake: Omit<FakeServer, 'port' | 'close'> = { sslRequests: 0, handshakes: 0, afterStartup: [] };
  const askPassword = (socket: Socket) => {
    let startup = true;
    socket.on('data', (chunk) => {
      if (startup) {
        startup = false;
        // AuthenticationCleartextPassword: 'R', length 8, code 3.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      fake.afterStartup.push(chunk);
      socket.end();
    });
  };
  const server: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('error', () => undefined);
    raw.on('close', () => sockets.delete(raw));
    raw.once('data', (first) => {
      // SSLRequest: length 8, code 80877103. Anything else is a startup message in clear.
      if (first.length !== 8 || first.readUInt32BE(4) !== 80877103) {
        askPassword(raw);
        raw.emit('data', first);
        return;
      }
      fake.sslRequests++;
      raw.write(mode.ssl);
      if (mode.ssl === 'N') return askPassword(raw);
      const tls = new TLSSocket(raw, { isServer: true, cert: mode.cert, key: mode.key });
      tls.on('error', () => undefined);
      tls.on('secure', () => fake.handshakes++);
      askPassword(tls);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(fake, {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  });
}
