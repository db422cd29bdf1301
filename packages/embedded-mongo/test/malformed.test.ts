import { connect, type Socket } from 'node:net';
import { serialize } from 'bson';
import { MongoClient } from 'mongodb';
import { startHarness, type Harness } from './helpers';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});
afterAll(() => harness.stop());

function header(length: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(16);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(1, 4);
  buffer.writeInt32LE(0, 8);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

function opMsg(body: Buffer): Buffer {
  const flagsAndKind = Buffer.from([0, 0, 0, 0, 0]);
  return Buffer.concat([header(16 + flagsAndKind.length + body.length, 2013), flagsAndKind, body]);
}

/** Sends raw bytes and resolves with whatever came back once the server closed the socket (or after a pause). */
function exchange(bytes: Buffer): Promise<{ closed: boolean; reply: Buffer }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(harness.server.port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, reply: Buffer.concat(chunks) });
    }, 500);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, reply: Buffer.concat(chunks) });
    });
  });
}

const ping = serialize({ ping: 1, $db: 'admin' });

const cases: Record<string, Buffer> = {
  'length prefix smaller than a header': Buffer.concat([header(8, 2013), Buffer.alloc(8)]),
  'length prefix of 2 GiB': header(0x7fffffff, 2013),
  'negative length prefix': header(-5, 2013),
  'unknown opcode': Buffer.concat([header(20, 9999), Buffer.alloc(4)]),
  'truncated BSON body': opMsg(Buffer.from(ping.subarray(0, ping.length - 4))),
  'BSON length larger than the message': opMsg(Buffer.concat([Buffer.from([0xff, 0, 0, 0]), Buffer.from(ping.subarray(4))])),
  'corrupt BSON element': opMsg(Buffer.from([12, 0, 0, 0, 0x77, 0x61, 0, 1, 2, 3, 4, 0])),
  'unknown section kind': Buffer.concat([header(26, 2013), Buffer.from([0, 0, 0, 0, 7]), Buffer.alloc(5)]),
  'garbage bytes': Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3)),
};

describe('malformed input', () => {
  it.each(Object.entries(cases))('closes the connection on %s and keeps serving others', async (_name, bytes) => {
    const { closed, reply } = await exchange(bytes);
    expect(closed || reply.length > 0).toBe(true);
    await expect(harness.client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
  });

  it('serves many concurrent connections', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => MongoClient.connect(harness.server.uri, { maxPoolSize: 5 })));
    try {
      const results = await Promise.all(clients.flatMap((client, i) => Array.from({ length: 5 }, (_, j) => client.db('load').collection('c').insertOne({ i, j }))));
      expect(results).toHaveLength(100);
      expect(await harness.client.db('load').collection('c').countDocuments()).toBe(100);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
