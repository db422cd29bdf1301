import { EmbeddedMongoServer, type LogEntry } from '@ccb/embedded-mongo';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';

const DATABASE_NAME = 'content-commerce';

/** The embedded MongoDB-compatible server, started when no MONGODB_URI is configured. */
@Injectable()
export class EmbeddedDatabase implements OnApplicationShutdown {
  private readonly logger = new Logger(EmbeddedDatabase.name);
  private server: EmbeddedMongoServer | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Starts the server (in memory, or with its files under DATA_DIR/db) and returns the URI of the app's database. */
  async start(): Promise<string> {
    const dbPath = this.config.embeddedDbInMemory ? undefined : join(this.config.dataDir, 'db');
    if (dbPath) await mkdir(dbPath, { recursive: true });
    this.server = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath }).catch(withoutStack);
    // The server runs on its own thread; if that thread dies, say so (queries then fail with connection errors).
    this.server.on('error', (error: Error) =>
      this.logger.error(`Embedded database failed: ${error.message}`, error.stack),
    );
    // What the server reports for an operator (a closed connection, a failed commit) goes to the app's log.
    this.server.on('log', (entry: LogEntry) => {
      const line = `${entry.source}: ${entry.message}`;
      if (entry.level === 'error') this.logger.error(line);
      else this.logger.warn(line);
    });
    this.logger.log(`Embedded database listening on ${this.server.uri} (${dbPath ?? 'in memory'})`);
    return `${this.server.uri.replace(/\/$/, '')}/${DATABASE_NAME}`;
  }

  /** Closes the app's connection before the server it points to. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.server) return;
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
