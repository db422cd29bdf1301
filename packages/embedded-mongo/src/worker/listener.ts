import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type ListenOptions, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { CommitCounters } from '../commit-counters';
import { CursorRegistry } from '../commands/cursor-registry';
import { SessionRegistry } from '../commands/session-registry';
import { CountingStore } from '../storage/counting-store';
import { Engine } from '../storage/engine';
import { LmdbStore } from '../storage/lmdb-store';
import { MemoryStore } from '../storage/store';
import { describeError, log } from '../log';
import { sweepExpired } from '../ttl';
import { Connection, type ServerContext } from '../wire/connection';
import type { CountersData, EmbeddedMongoOptions } from './protocol';

/** Beside the store while a server serves it: its URI, for tools of other processes (`db-tool backup`). */
export const URI_FILE = 'embedded-mongo.uri';

/**
 * The server itself, on the thread that runs it (the worker): the store, the TCP listener (and the Unix domain
 * socket one when asked), the connections and the maintenance timer (TTL, idle cursors and sessions) all live and
 * run here.
 */
export class WireListener {
  private readonly maintenance: NodeJS.Timeout;

  private constructor(
    private readonly servers: Server[],
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

  /**
   * `socketPath`: also listen on this Unix domain socket (its directory is the caller's); `counters`: the commit
   * counters shared with the caller, bumped by every write to a watched namespace.
   */
  static async start(
    options: EmbeddedMongoOptions,
    host: string,
    socketPath?: string,
    counters?: CountersData,
  ): Promise<WireListener> {
    const store = options.dbPath ? LmdbStore.open(options.dbPath) : new MemoryStore();
    try {
      const counted = counters
        ? new CountingStore(store, new CommitCounters(counters.buffer, counters.namespaces))
        : store;
      const engine = new Engine(counted);
      const context: ServerContext = { engine, cursors: new CursorRegistry(), sessions: new SessionRegistry() };
      const sockets = new Set<Socket>();
      const accept = acceptor(context, sockets);
      const servers = [await listen(accept, { port: options.port ?? 0, host })];
      if (socketPath) servers.push(await listen(accept, { path: socketPath }).catch(closingFirst(servers)));
      const address = servers[0].address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      const uriFile = options.dbPath ? join(options.dbPath, URI_FILE) : undefined;
      if (uriFile) writeUriFile(uriFile, host, port);
      return new WireListener(servers, sockets, context, port, options.ttlIntervalMs ?? 60_000, uriFile);
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
    const closed = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(closed);
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

/** What every listener does with a new connection; connection ids are unique across listeners. */
function acceptor(context: ServerContext, sockets: Set<Socket>): (socket: Socket) => void {
  let nextConnectionId = 1;
  return (socket) => {
    socket.setNoDelay(true); // a no-op on a Unix domain socket
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    new Connection(socket, nextConnectionId++, context);
  };
}

function listen(accept: (socket: Socket) => void, where: ListenOptions): Promise<Server> {
  const server = createServer(accept);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => resolve(server));
  });
}

/** A listener that failed to start releases those started before it (the TCP port). */
function closingFirst(servers: Server[]): (error: unknown) => Promise<never> {
  return async (error) => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    throw error;
  };
}
