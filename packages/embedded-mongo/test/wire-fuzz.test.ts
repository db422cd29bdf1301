import { connect, type Socket } from 'node:net';
import { deserialize, serialize } from 'bson';
import fc from 'fast-check';
import type { LogEntry } from '../src';
import { FramingError, MessageFramer, MAX_MESSAGE_SIZE } from '../src/wire/framer';
import { parseMessage, ProtocolError, unparsedRequest } from '../src/wire/messages';
import { startHarness, type Harness } from './helpers';

/**
 * Property-based fuzzing of the wire layer: the framer and OP_MSG/OP_QUERY parser as functions, then random
 * and mutated messages over a real socket. `FUZZ_RUNS` sets the runs per property (`npm run fuzz` at the
 * repository root runs 100 000); the defaults keep `npm test` to a few seconds.
 */
const runs = (fallback: number): number => Number(process.env.FUZZ_RUNS ?? fallback);
/** A fixed seed per property in `npm test`, so it is repeatable; `npm run fuzz` (FUZZ_RUNS) draws new ones; FUZZ_SEED replays. */
const seedFor = (fixed: number): number | undefined =>
  process.env.FUZZ_SEED !== undefined
    ? Number(process.env.FUZZ_SEED)
    : process.env.FUZZ_RUNS === undefined
      ? fixed
      : undefined;
/** Jest's timeout for the socket property: up to 30 ms per case on a busy machine, and never under a minute. */
const SOCKET_TIMEOUT = Math.max(60_000, runs(200) * 30);

const OP_QUERY = 2004;
const OP_MSG = 2013;
const PING_ID = 0x7fffffff;

function header(length: number, requestId: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeInt32LE(length, 0);
  bytes.writeInt32LE(requestId, 4);
  bytes.writeInt32LE(opCode, 12);
  return bytes;
}

/** A message with a correct length prefix. */
function frame(requestId: number, opCode: number, body: Buffer): Buffer {
  return Buffer.concat([header(16 + body.length, requestId, opCode), body]);
}

const bsonValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string()), { maxKeys: 3 }),
);

/** A command: a known or random name first, then random fields (`$db` usually set). */
const commandDoc = fc
  .tuple(
    fc.oneof(fc.constantFrom('ping', 'hello', 'find', 'insert', 'count', 'aggregate', 'listIndexes'), fc.string()),
    fc.oneof(fc.constant('fuzz'), fc.string(), fc.integer()),
    fc.dictionary(fc.string({ maxLength: 8 }), bsonValue, { maxKeys: 4 }),
    fc.option(fc.constantFrom('admin', 'fuzz', ''), { nil: undefined }),
  )
  .map(([name, value, rest, db]) => ({ [name]: value, ...rest, ...(db === undefined ? {} : { $db: db }) }));

/** OP_MSG: flags (checksum and moreToCome included), a body section and optional document sequences. */
const opMsgBody = fc
  .tuple(
    fc.constantFrom(0, 0, 0, 1, 2, 0x10000),
    commandDoc,
    fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.array(commandDoc, { maxLength: 2 })), { maxLength: 2 }),
  )
  .map(([flags, body, sequences]) => {
    const parts = [Buffer.alloc(4), Buffer.from([0]), Buffer.from(serialize(body))];
    parts[0].writeUInt32LE(flags >>> 0);
    for (const [identifier, docs] of sequences) {
      const payload = Buffer.concat([
        Buffer.from(`${identifier.replace(/\0/g, '')}\0`),
        ...docs.map((doc) => serialize(doc)),
      ]);
      const size = Buffer.alloc(4);
      size.writeInt32LE(4 + payload.length);
      parts.push(Buffer.from([1]), size, payload);
    }
    if (flags & 1) parts.push(Buffer.alloc(4));
    return Buffer.concat(parts);
  });

const opQueryBody = fc
  .tuple(fc.string({ maxLength: 12 }), commandDoc)
  .map(([collection, doc]) =>
    Buffer.concat([
      Buffer.alloc(4),
      Buffer.from(`${collection.replace(/\0/g, '')}.$cmd\0`),
      Buffer.alloc(8),
      serialize(doc),
    ]),
  );

/** A valid-looking body, mutated: bytes overwritten, cut short or spliced in. */
const mutatedBody = fc
  .tuple(
    fc.oneof(
      opMsgBody,
      opQueryBody,
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    ),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
    fc.option(fc.nat(), { nil: undefined }),
    fc.uint8Array({ maxLength: 8 }),
  )
  .map(([body, flips, cut, spliced]) => {
    const bytes = Buffer.from(body);
    for (const [at, value] of flips) if (bytes.length > 0) bytes[at % bytes.length] = value;
    const kept = cut === undefined || bytes.length === 0 ? bytes : bytes.subarray(0, cut % bytes.length);
    return Buffer.concat([kept, Buffer.from(spliced)]);
  });

/** Framed messages; the length prefix is either exact or out of range (a prefix in range but wrong would wait). */
const message = fc
  .tuple(
    // Any request id but the trailing ping's (PING_ID), so replies cannot be mistaken for the ping's.
    fc.integer({ max: PING_ID - 1 }),
    fc.constantFrom(OP_MSG, OP_MSG, OP_QUERY, 2004, 1, 2010, 0, -1),
    fc.oneof(opMsgBody, opQueryBody, mutatedBody),
    fc.option(fc.oneof(fc.integer({ min: -(2 ** 31), max: 15 }), fc.integer({ min: MAX_MESSAGE_SIZE + 1 })), {
      nil: undefined,
      freq: 8,
    }),
  )
  .map(([requestId, opCode, body, badLength]) => {
    const bytes = frame(requestId, opCode, body);
    if (badLength !== undefined) bytes.writeInt32LE(badLength, 0);
    return bytes;
  });

/** Found by fuzzing (now fixed): a whole ping followed by a bad length prefix in one chunk lost the ping. */
const pingThenBadLength: [Buffer[], number[]] = [
  [
    frame(1, OP_MSG, Buffer.concat([Buffer.alloc(5), serialize({ ping: 1 })])),
    Buffer.concat([header(0, 0, OP_MSG), Buffer.from(Buffer.concat([Buffer.alloc(5), serialize({ ping: 1 })]))]),
  ],
  [],
];
/** Found by fuzzing (now fixed): `{insert: 0}` failed on a TypeError (logged as a defect), not InvalidNamespace. */
const numericCollectionName = frame(1, OP_MSG, Buffer.concat([Buffer.alloc(5), serialize({ insert: 0 })]));
/** Found by fuzzing (now fixed): an OP_MSG too short for its flags threw a RangeError, not a ProtocolError. */
const opMsgWithoutFlags = header(16, 0, OP_MSG);

describe('wire fuzzing: framer and parser', () => {
  it('frames any split of a stream into the same messages, or refuses its length with a FramingError', () => {
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (messages, cuts) => {
          const stream = Buffer.concat(messages);
          const framed: Buffer[] = [];
          const framer = new MessageFramer();
          let at = 0;
          for (const cut of [...cuts.map((c) => c % (stream.length + 1)).sort((a, b) => a - b), stream.length]) {
            const { messages: complete, error } = framer.push(stream.subarray(at, Math.max(at, cut)));
            framed.push(...complete);
            at = Math.max(at, cut);
            if (error) {
              expect(error).toBeInstanceOf(FramingError);
              const valid = messages.findIndex((bytes) => bytes.readInt32LE(0) !== bytes.length);
              expect(framed).toEqual(messages.slice(0, valid));
              return;
            }
          }
          expect(framed).toEqual(messages);
        },
      ),
      { numRuns: runs(400), examples: [pingThenBadLength], seed: seedFor(1) },
    );
  });

  it('parses a framed message or throws, and says how to answer what it cannot parse', () => {
    fc.assert(
      fc.property(message, (bytes) => {
        fc.pre(bytes.readInt32LE(0) === bytes.length);
        let parsed: ReturnType<typeof parseMessage> | undefined;
        try {
          parsed = parseMessage(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtocolError);
          const answer = unparsedRequest(bytes);
          const opCode = bytes.readInt32LE(12);
          expect(answer === undefined).toBe(opCode !== OP_MSG && opCode !== OP_QUERY);
          return;
        }
        expect([OP_MSG, OP_QUERY]).toContain(parsed.header.opCode);
        expect(typeof parsed.command).toBe('object');
      }),
      { numRuns: runs(400), examples: [[opMsgWithoutFlags]], seed: seedFor(2) },
    );
  });
});

/** One raw connection; `exchange` sends bytes then a ping and collects replies up to the ping's, or the close. */
class RawClient {
  private readonly socket: Socket;
  private buffered = Buffer.alloc(0);
  private closed = false;
  private wake: () => void = () => undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends `bytes` and a ping (request id PING_ID); resolves with the replies before the ping's, or the close. */
  async exchange(bytes: Buffer): Promise<{ replies: Record<string, unknown>[]; closed: boolean }> {
    const ping = frame(PING_ID, OP_MSG, Buffer.concat([Buffer.alloc(5), serialize({ ping: 1, $db: 'admin' })]));
    this.socket.write(Buffer.concat([bytes, ping]));
    const replies: Record<string, unknown>[] = [];
    for (;;) {
      const reply = this.nextReply();
      if (reply) {
        if (reply.responseTo === PING_ID) {
          expect(reply.doc).toEqual({ ok: 1 });
          return { replies, closed: false };
        }
        replies.push(reply.doc);
        continue;
      }
      if (this.closed) return { replies, closed: true };
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }

  private nextReply(): { responseTo: number; doc: Record<string, unknown> } | undefined {
    if (this.buffered.length < 4 || this.buffered.length < this.buffered.readInt32LE(0)) return undefined;
    const reply = this.buffered.subarray(0, this.buffered.readInt32LE(0));
    this.buffered = this.buffered.subarray(reply.length);
    const opCode = reply.readInt32LE(12);
    expect([1, OP_MSG]).toContain(opCode);
    return { responseTo: reply.readInt32LE(8), doc: deserialize(reply.subarray(opCode === 1 ? 36 : 21)) };
  }
}

describe('wire fuzzing over a socket', () => {
  let harness: Harness;
  const closes = new Set<string>();
  /** Commands that failed on a defect of the server (logged as "failed unexpectedly"). */
  const defects: string[] = [];

  beforeAll(async () => {
    harness = await startHarness();
    harness.server.on('log', (entry: LogEntry) => {
      if (entry.message.startsWith('closing connection')) closes.add(entry.source);
      if (entry.message.includes('failed unexpectedly')) defects.push(entry.message);
    });
  });
  afterAll(() => harness.stop());

  /** The server's id of a raw connection (from `hello`), to find its log lines. */
  async function connectionId(client: RawClient): Promise<string> {
    const hello = frame(1, OP_MSG, Buffer.concat([Buffer.alloc(5), serialize({ hello: 1, $db: 'admin' })]));
    const { replies } = await client.exchange(hello);
    return `conn${String(replies[0].connectionId)}`;
  }

  /** The log line may cross threads after the close reached the client: a ping on another connection orders them. */
  async function closeLogged(source: string): Promise<boolean> {
    await expect(harness.client.db('admin').command({ ping: 1 })).resolves.toEqual({ ok: 1 });
    return closes.has(source);
  }

  it(
    'answers every message with replies (ok or a MongoDB error) or a logged close, and stays up',
    async () => {
      let client = await RawClient.open(harness.server.port);
      let source = await connectionId(client);
      await fc.assert(
        fc.asyncProperty(message, async (bytes) => {
          if (client.isClosed) {
            client = await RawClient.open(harness.server.port);
            source = await connectionId(client);
          }
          const { replies, closed } = await client.exchange(bytes);
          for (const reply of replies) {
            if (reply.ok === 1) continue;
            expect(reply).toMatchObject({ ok: 0, code: expect.any(Number), codeName: expect.any(String) });
          }
          // Not closed: the ping after the message was answered. Closed: the server still answers another client.
          if (closed) expect(await closeLogged(source)).toBe(true);
          expect(defects).toEqual([]);
        }),
        {
          numRuns: runs(200),
          seed: seedFor(3),
          examples: [[Buffer.concat(pingThenBadLength[0])], [opMsgWithoutFlags], [numericCollectionName]],
        },
      );
      client.close();
    },
    SOCKET_TIMEOUT,
  );
});
