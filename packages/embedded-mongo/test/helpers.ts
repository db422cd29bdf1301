import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
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

/** The code, code name and message of the server error a command fails with (failing the test if it succeeds). */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: unknown; codeName: unknown; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  const { code, codeName, message } = error as MongoServerError;
  return { code, codeName, message };
}
