import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { CursorRegistry } from '../commands/cursor-registry';
import { SessionRegistry } from '../commands/session-registry';
import { Engine } from '../storage/engine';
import { LmdbStore } from '../storage/lmdb-store';
import { MemoryStore } from '../storage/store';
import { describeError, log } from '../log';
import { sweepExpired } from '../ttl';
import { Connection, type ServerContext } from '../wire/connection';
import type { EmbeddedMongoOptions } from './protocol';

/** Beside the store while a server serves it: its URI, for tools of other processes (`db-tool backup`). */
export const URI_FILE = 'embedded-mongo.uri';

/**
 * The server itself, on the thread that runs it (the worker): the store, the TCP listener, the
 * connections and the maintenance timer (TTL, idle cursors and sessions) all live and run here.
 */
export class WireListener {
  private readonly maintenance: NodeJS.Timeout;

  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    private readonly context: ServerContext,
    readonly port: number,
    ttlIntervalMs: number,
    private readonly uriFile: string | undefined,
  ) {
    this.maintenance = setInterval(() => {
      void expire(context.engine);
      context.cursors.closeIdle();
      context.sessions.expireIdle();
    }, ttlIntervalMs);
    this.maintenance.unref();
  }

  static async start(options: EmbeddedMongoOptions, host: string): Promise<WireListener> {
    const store = options.dbPath ? LmdbStore.open(options.dbPath) : new MemoryStore();
    try {
      const engine = new Engine(store);
      const context: ServerContext = { engine, cursors: new CursorRegistry(), sessions: new SessionRegistry() };
      const sockets = new Set<Socket>();
      const server = await listen(context, sockets, options.port ?? 0, host);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      const uriFile = options.dbPath ? join(options.dbPath, URI_FILE) : undefined;
      if (uriFile) writeUriFile(uriFile, host, port);
      return new WireListener(server, sockets, context, port, options.ttlIntervalMs ?? 60_000, uriFile);
    } catch (error) {
      // Release the data directory when the store cannot be loaded or the port is taken.
      await store.close();
      throw error;
    }
  }

  /** Stops accepting connections, closes open ones and closes the store after pending writes. */
  async stop(): Promise<void> {
    clearInterval(this.maintenance);
    if (this.uriFile) rmSync(this.uriFile, { force: true });
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await this.context.engine.flush();
    await this.context.engine.close();
  }
}

/** Best effort: without the file, `db-tool backup` says the server cannot be reached; serving goes on. */
function writeUriFile(file: string, host: string, port: number): void {
  try {
    writeFileSync(file, `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}\n`);
  } catch (error) {
    log({ level: 'warn', source: 'storage', message: `cannot write ${file}: ${describeError(error)}` });
  }
}

/** Removes expired TTL documents and makes the removals durable like any write; a failure is logged. */
async function expire(engine: Engine): Promise<void> {
  const removed = sweepExpired(engine);
  if (removed === 0) return;
  await engine.flush().catch((error: unknown) => {
    const message = `${removed} expired document(s) removed but not durable: ${describeError(error)}`;
    log({ level: 'error', source: 'ttl', message });
  });
}

function listen(context: ServerContext, sockets: Set<Socket>, port: number, host: string): Promise<Server> {
  let nextConnectionId = 1;
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new Connection(socket, nextConnectionId++, context);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
