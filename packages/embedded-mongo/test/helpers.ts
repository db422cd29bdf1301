import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongoServer, type EmbeddedMongoOptions } from '../src';

export interface Harness {
  server: EmbeddedMongoServer;
  client: MongoClient;
  stop(): Promise<void>;
}

export async function startHarness(options: EmbeddedMongoOptions = {}): Promise<Harness> {
  const server = await EmbeddedMongoServer.start({ port: 0, ...options });
  const client = await MongoClient.connect(server.uri);
  return {
    server,
    client,
    async stop() {
      await client.close();
      await server.stop();
    },
  };
}

export function tempDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'embedded-mongo-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Documents with numeric or string `_id`s (the driver's default schema assumes ObjectId). */
export type AnyDoc = { _id?: number | string; [field: string]: unknown };
