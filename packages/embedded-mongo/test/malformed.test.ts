import { connect, type Socket } from 'node:net';
import { deserialize, serialize } from 'bson';
import { MongoClient } from 'mongodb';
import type { LogEntry } from '../src';
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

/** Sends raw bytes; resolves with what came back once `replies` whole messages arrived or the server closed. */
function exchange(bytes: Buffer, replies = 0): Promise<{ closed: boolean; reply: Buffer }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(harness.server.port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (replies > 0 && splitReplies(Buffer.concat(chunks)).length >= replies) socket.end();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ closed: replies === 0, reply: Buffer.concat(chunks) }));
  });
}

const ping = serialize({ ping: 1, $db: 'admin' });

/** Whole wire messages of a byte stream. */
function splitReplies(bytes: Buffer): Buffer[] {
  const replies: Buffer[] = [];
  for (let at = 0; at + 4 <= bytes.length && at + bytes.readInt32LE(at) <= bytes.length; at += bytes.readInt32LE(at)) {
    replies.push(bytes.subarray(at, at + bytes.readInt32LE(at)));
  }
  return replies;
}

/** Framing that leaves nothing to answer: the connection is closed, and the close is logged. */
const closing: Record<string, Buffer> = {
  'length prefix smaller than a header': Buffer.concat([header(8, 2013), Buffer.alloc(8)]),
  'length prefix of 2 GiB': header(0x7fffffff, 2013),
  'negative length prefix': header(-5, 2013),
  'unknown opcode': Buffer.concat([header(20, 9999), Buffer.alloc(4)]),
  'garbage bytes': Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3)),
};

/** Whole messages that do not parse: answered with a ProtocolError reply, the connection stays usable. */
const answered: Record<string, Buffer> = {
  'truncated BSON body': opMsg(Buffer.from(ping.subarray(0, ping.length - 4))),
  'BSON length larger than the message': opMsg(
    Buffer.concat([Buffer.from([0xff, 0, 0, 0]), Buffer.from(ping.subarray(4))]),
  ),
  'corrupt BSON element': opMsg(Buffer.from([12, 0, 0, 0, 0x77, 0x61, 0, 1, 2, 3, 4, 0])),
  'unknown section kind': Buffer.concat([header(26, 2013), Buffer.from([0, 0, 0, 0, 7]), Buffer.alloc(5)]),
  'OP_MSG without flags': header(16, 2013),
  'OP_QUERY without a document': Buffer.concat([
    header(24, 2004),
    Buffer.from('admin.$cmd\0', 'latin1').subarray(0, 8),
  ]),
};

/** The log entries the server reports while `action` runs. */
async function logsDuring(action: () => Promise<unknown>): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  const listener = (entry: LogEntry): void => void entries.push(entry);
  harness.server.on('log', listener);
  try {
    await action();
    // A ping after the action: its reply comes after any log line the server posted before it.
    await harness.client.db('admin').command({ ping: 1 });
  } finally {
    harness.server.off('log', listener);
  }
  return entries;
}

/** The first reply document on the socket (OP_MSG: after flags and kind; OP_REPLY: after its 20-byte prefix). */
function replyDocument(reply: Buffer): Record<string, unknown> {
  const opCode = reply.readInt32LE(12);
  return deserialize(reply.subarray(opCode === 1 ? 36 : 21, reply.readInt32LE(0)));
}

describe('malformed input', () => {
  it.each(Object.entries(closing))(
    'closes the connection on %s, logs it and keeps serving others',
    async (_name, bytes) => {
      let result: { closed: boolean; reply: Buffer } | undefined;
      const logs = await logsDuring(async () => (result = await exchange(bytes)));
      expect(result).toEqual({ closed: true, reply: Buffer.alloc(0) });
      expect(logs).toEqual([
        {
          level: 'warn',
          source: expect.stringMatching(/^conn\d+$/),
          message: expect.stringMatching(/^closing connection: /),
        },
      ]);
    },
  );

  it.each(Object.entries(answered))('answers %s with a ProtocolError and logs it', async (_name, bytes) => {
    let result: { closed: boolean; reply: Buffer } | undefined;
    const logs = await logsDuring(
      async () => (result = await exchange(Buffer.concat([bytes, opMsg(Buffer.from(ping))]), 2)),
    );
    const replies = splitReplies(result!.reply);
    expect(replies).toHaveLength(2);
    expect(replyDocument(replies[0])).toMatchObject({ ok: 0, code: 17, codeName: 'ProtocolError' });
    expect(replyDocument(replies[0]).errmsg).toMatch(/^invalid message: /);
    expect(replyDocument(replies[1])).toEqual({ ok: 1 });
    expect(logs).toEqual([
      {
        level: 'warn',
        source: expect.stringMatching(/^conn\d+$/),
        message: expect.stringMatching(/^invalid message answered with an error: /),
      },
    ]);
  });

  it('answers the messages before an invalid length prefix, then closes and logs it', async () => {
    let result: { closed: boolean; reply: Buffer } | undefined;
    const logs = await logsDuring(
      async () => (result = await exchange(Buffer.concat([opMsg(Buffer.from(ping)), header(-5, 2013)]))),
    );
    expect(result!.closed).toBe(true);
    expect(splitReplies(result!.reply).map(replyDocument)).toEqual([{ ok: 1 }]);
    expect(logs.map((entry) => entry.message)).toEqual([
      expect.stringMatching(/^closing connection: unreadable message framing/),
    ]);
  });

  it('answers a collection name of the wrong type with InvalidNamespace, not as a server defect', async () => {
    const logs = await logsDuring(async () => {
      const reply = await harness.client
        .db('fuzz')
        .command({ insert: 5, documents: [{}] })
        .catch((error: unknown) => error);
      expect(reply).toMatchObject({
        code: 73,
        codeName: 'InvalidNamespace',
        message: 'collection name has invalid type number',
      });
    });
    expect(logs).toEqual([]);
  });

  it.each([
    ['$in', { v: { $in: 1 } }],
    ['$nin', { v: { $nin: 'x' } }],
    ['$all', { v: { $all: 3 } }],
    ['$in', { $or: [{ w: 1 }, { v: { $not: { $in: {} } } }] }],
    ['$in', { v: { $elemMatch: { x: { $in: 2 } } } }],
  ])('refuses %s without an array with BadValue, not as a server defect (%j)', async (op, filter) => {
    const collection = harness.client.db('fuzz').collection('lists');
    await collection.insertOne({ v: [{ x: 2 }] });
    const logs = await logsDuring(async () => {
      for (const read of [() => collection.find(filter).toArray(), () => collection.countDocuments(filter)]) {
        await expect(read()).rejects.toMatchObject({ code: 2, codeName: 'BadValue', message: `${op} needs an array` });
      }
    });
    expect(logs).toEqual([]);
  });

  it('compares with a literal document holding a list operator as data', async () => {
    const collection = harness.client.db('fuzz').collection('literals');
    await collection.insertOne({ v: { x: { $in: 1 } } }, { checkKeys: false });
    expect(await collection.countDocuments({ v: { x: { $in: 1 } } })).toBe(1);
  });

  it('serves many concurrent connections', async () => {
    const clients = await Promise.all(
      Array.from({ length: 20 }, () => MongoClient.connect(harness.server.uri, { maxPoolSize: 5 })),
    );
    try {
      const results = await Promise.all(
        clients.flatMap((client, i) =>
          Array.from({ length: 5 }, (_, j) => client.db('load').collection('c').insertOne({ i, j })),
        ),
      );
      expect(results).toHaveLength(100);
      expect(await harness.client.db('load').collection('c').countDocuments()).toBe(100);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
