import { createServer, type Server, type Socket } from 'node:net';
import { CursorRegistry } from './commands/cursor-registry';
import { SessionRegistry } from './commands/session-registry';
import { Engine } from './storage/engine';
import { LmdbStore } from './storage/lmdb-store';
import { MemoryStore } from './storage/store';
import { sweepExpired } from './ttl';
import { Connection, type ServerContext } from './wire/connection';

export interface EmbeddedMongoOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Data directory; unset means in-memory. */
  dbPath?: string;
  /** How often expired TTL documents (and idle cursors and sessions) are removed; default 60 000 ms, as MongoDB. */
  ttlIntervalMs?: number;
}

export class EmbeddedMongoServer {
  private readonly maintenance: NodeJS.Timeout;

  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    private readonly context: ServerContext,
    readonly host: string,
    readonly port: number,
    ttlIntervalMs: number,
  ) {
    this.maintenance = setInterval(() => {
      sweepExpired(context.engine);
      context.cursors.closeIdle();
      context.sessions.expireIdle();
    }, ttlIntervalMs);
    this.maintenance.unref();
  }

  get uri(): string {
    return `mongodb://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  static async start(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongoServer> {
    const host = options.host ?? '127.0.0.1';
    const store = options.dbPath ? LmdbStore.open(options.dbPath) : new MemoryStore();
    try {
      const context: ServerContext = { engine: new Engine(store), cursors: new CursorRegistry(), sessions: new SessionRegistry() };
      const sockets = new Set<Socket>();
      const server = await listen(context, sockets, options.port ?? 0, host);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      return new EmbeddedMongoServer(server, sockets, context, host, port, options.ttlIntervalMs ?? 60_000);
    } catch (error) {
      // Release the data directory when the store cannot be loaded or the port is taken.
      await store.close();
      throw error;
    }
  }

  /** Stops accepting connections, closes open ones and closes the store after pending writes. */
  async stop(): Promise<void> {
    clearInterval(this.maintenance);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await this.context.engine.flush();
    await this.context.engine.close();
  }
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
