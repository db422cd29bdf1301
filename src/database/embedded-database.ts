import { CommitCounters, EmbeddedMongoServer, type LogEntry } from '@ccb/embedded-mongo';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { COUNTED_COLLECTIONS } from '../services/catalogue/storefront-indexer';

export const DATABASE_NAME = 'content-commerce';
/** After the database thread died: time for the requests in flight to be answered 503 before the process exits. */
const EXIT_GRACE_MS = 1000;
/**
 * The driver's server monitor waits this long for `hello` (`connectTimeoutMS`, 30 s by default) before it clears the
 * pool and interrupts every command in flight. The embedded server answers on one thread, so `hello` waits behind the
 * longest command, and on a starved machine a bulk write of the seed held it past 30 s and failed. A dead thread is
 * caught by `onThreadDeath`, not by the monitor.
 */
export const EMBEDDED_MONITOR_TIMEOUT_MS = 300_000;
const DRIVER_OPTIONS = `connectTimeoutMS=${EMBEDDED_MONITOR_TIMEOUT_MS}`;

/** The embedded MongoDB-compatible server, started when no MONGODB_URI is configured. */
@Injectable()
export class EmbeddedDatabase implements OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddedDatabase.name);
  private server: EmbeddedMongoServer | undefined;
  private death: Error | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Starts the server (in memory, or with its files under DATA_DIR/db) and returns the URI of the app's database. */
  async start(): Promise<string> {
    const dbPath = this.config.embeddedDbInMemory ? undefined : join(this.config.dataDir, 'db');
    if (dbPath) await mkdir(dbPath, { recursive: true });
    // The app's own connection goes through the Unix domain socket: each round trip costs the server's thread fewer
    // system calls than TCP loopback (bench/embedded-mongo/command-cost.js). TCP stays on for tools and other clients.
    // The storefront's result cache checks its results against the commit counters of the collections it reads.
    const commitCounters = { namespaces: COUNTED_COLLECTIONS.map((name) => `${DATABASE_NAME}.${name}`) };
    const { embeddedDbLowerPriority: lowerPriority, embeddedDbMaxHeapMb: maxHeapMb } = this.config;
    const options = { port: 0, host: '127.0.0.1', dbPath, unixSocket: true, commitCounters, lowerPriority, maxHeapMb };
    this.server = await EmbeddedMongoServer.start(options).catch(withoutStack);
    this.server.on('error', (error: Error) => this.onThreadDeath(error));
    // What the server reports for an operator (a closed connection, a failed commit) goes to the app's log.
    this.server.on('log', (entry: LogEntry) => {
      const line = `${entry.source}: ${entry.message}`;
      if (entry.level === 'error') this.logger.error(line);
      else this.logger.warn(line);
    });
    const socket = this.server.socketPath ? `, the app through ${this.server.socketPath}` : '';
    this.logger.log(`Embedded database listening on ${this.server.uri} (${dbPath ?? 'in memory'}${socket})`);
    return `${this.server.socketUri ?? this.server.uri}/${DATABASE_NAME}?${DRIVER_OPTIONS}`;
  }

  /** The URI of the app's database over TCP, for other instances and tools to share it (the app uses the socket). */
  get tcpUri(): string | undefined {
    return this.server && `${this.server.uri}/${DATABASE_NAME}?${DRIVER_OPTIONS}`;
  }

  /**
   * The counters the server bumps for every write of the collections `COUNTED_COLLECTIONS` (namespaces
   * `content-commerce.<name>`), whichever client wrote; undefined before the start and with MONGODB_URI.
   */
  get commitCounters(): CommitCounters | undefined {
    return this.server?.commitCounters;
  }

  /** Why the database thread died, once it has: the process is then about to exit. */
  get failure(): Error | undefined {
    return this.death;
  }

  /**
   * The server's thread died (an uncaught error in it): nothing in this process can bring it back with its store, so
   * the process exits for its supervisor to restart it. Until then liveness fails, new requests get a 503, and the
   * connection is force-closed so that queries in flight fail at once instead of waiting for server selection.
   */
  private onThreadDeath(error: Error): void {
    this.death = error;
    this.logger.error(
      `Embedded database thread died (${error.message}); exiting in ${EXIT_GRACE_MS} ms so that a supervisor restarts the process`,
    );
    void this.moduleRef
      .get<Connection>(getConnectionToken(), { strict: false })
      .close(true)
      .catch(() => undefined);
    setTimeout(() => process.exit(1), EXIT_GRACE_MS);
  }

  /** Closes the app's connection before the server it points to. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.server || this.death) return;
    await this.moduleRef.get<Connection>(getConnectionToken(), { strict: false }).close();
    await this.server.stop();
    this.server = undefined;
    this.logger.log('Embedded database stopped');
  }
}

/**
 * A damaged store is refused with a message that names the file and the way to recover; the worker's stack would
 * bury it in the start-up log (Nest logs a failed provider with its stack) without telling the operator more.
 */
function withoutStack(error: unknown): never {
  if (error instanceof Error && error.name === 'StoreDamagedError') error.stack = `${error.name}: ${error.message}`;
  throw error;
}
