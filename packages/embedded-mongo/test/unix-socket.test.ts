import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongoServer } from '../src';
import { startHarness } from './helpers';

/** `unixSocket: true`: a Unix domain socket beside TCP, in a directory only this user may enter, gone at stop. */
describe('Unix domain socket', () => {
  it('serves the same store over the socket and over TCP', async () => {
    const server = await EmbeddedMongoServer.start({ port: 0, unixSocket: true });
    const overSocket = await MongoClient.connect(server.socketUri!);
    const overTcp = await MongoClient.connect(server.uri);
    try {
      expect(server.socketUri).toBe(`mongodb://${encodeURIComponent(server.socketPath!)}`);
      await overSocket
        .db('t')
        .collection('c')
        .insertOne({ _id: 1 as never, via: 'socket' });
      expect(
        await overTcp
          .db('t')
          .collection('c')
          .findOne({ _id: 1 as never }),
      ).toEqual({ _id: 1, via: 'socket' });
      // The server sees a connection per client whichever way it came: ids never repeat across listeners.
      const ids = await Promise.all(
        [overSocket, overTcp].map(async (client) => (await client.db('admin').command({ hello: 1 })).connectionId),
      );
      expect(new Set(ids).size).toBe(2);
    } finally {
      await overSocket.close();
      await overTcp.close();
      await server.stop();
    }
  });

  it('keeps the socket in a private directory and removes it when the server stops', async () => {
    const server = await EmbeddedMongoServer.start({ port: 0, unixSocket: true });
    const directory = dirname(server.socketPath!);
    expect(statSync(server.socketPath!).isSocket()).toBe(true);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    await server.stop();
    expect(existsSync(directory)).toBe(false);
  });

  it('removes the directory when the server thread dies', async () => {
    const server = await EmbeddedMongoServer.start({ port: 0, unixSocket: true });
    const directory = dirname(server.socketPath!);
    const died = new Promise((resolve) => server.once('error', resolve));
    await EmbeddedMongoServer.killThreadsForTests();
    await died;
    expect(existsSync(directory)).toBe(false);
  });

  it('is off unless asked for', async () => {
    const harness = await startHarness();
    try {
      expect(harness.server.socketPath).toBeUndefined();
      expect(harness.server.socketUri).toBeUndefined();
    } finally {
      await harness.stop();
    }
  });
});
