import fc from 'fast-check';
import { StompFrame, StompVersion } from '../../src/realtime/stomp/frame';
import { encodeFrame, HeaderList } from '../../src/realtime/stomp/frame-encoder';
import { StompFrameParser, StompParseError } from '../../src/realtime/stomp/frame-parser';
import { checkProperty, fuzzRuns, fuzzTimeout } from './support/fuzz-property';

/**
 * The STOMP frame decoder under random input, in process: valid frames survive encoding and any chunking, and any
 * bytes (random, or valid frames mutated) decode the same whole as split at random boundaries, failing only with
 * {@link StompParseError}.
 */
const RUNS = fuzzRuns(500);
const TIMEOUT = fuzzTimeout(RUNS, 5);
const LIMITS = { maxFrameBytes: 4096, maxHeaders: 16 };

/** Commands whose headers are escaped in 1.2, so any header text survives the round trip. */
const ESCAPED_COMMANDS = [
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
  'MESSAGE',
  'RECEIPT',
  'ERROR',
];

interface Outcome {
  frames: { command: string; headers: Record<string, string>; body: string }[];
  error: string | null;
}

/** Feeds `chunks` in order, as a session does, and records the frames and the error (which ends the session). */
function decode(chunks: Buffer[], version: StompVersion): Outcome {
  const parser = new StompFrameParser(LIMITS);
  parser.version = version;
  const frames: Outcome['frames'] = [];
  const onFrame = (frame: StompFrame) =>
    frames.push({ command: frame.command, headers: { ...frame.headers }, body: frame.body.toString('hex') });
  try {
    for (const chunk of chunks) parser.push(chunk, onFrame);
  } catch (error) {
    if (!(error instanceof StompParseError)) throw error;
    return { frames, error: error.message };
  }
  return { frames, error: null };
}

/** `bytes` cut at `cuts` (any numbers, taken modulo the length). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

const headerText = fc.string({
  maxLength: 12,
  unit: fc.oneof(
    fc.constantFrom(':', '\\', '\n', '\r', ' ', 'é', '\u0000'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
});
const header = fc.tuple(
  headerText.filter((name) => name !== 'content-length'),
  headerText,
);
const frame = fc.record({
  command: fc.constantFrom(...ESCAPED_COMMANDS),
  headers: fc.array(header, { maxLength: 6 }),
  body: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
});
const heartbeats = fc.constantFrom('', '\n', '\r\n', '\n\n');
const cuts = fc.array(fc.nat(), { maxLength: 12 });
const version = fc.constantFrom<StompVersion>('1.0', '1.1', '1.2');

/** What the decoder must give back for a frame that `encodeFrame` wrote: the first of repeated headers wins. */
function expected({
  command,
  headers,
  body,
}: {
  command: string;
  headers: HeaderList;
  body: Buffer;
}): Outcome['frames'][number] {
  const first = new Map<string, string>();
  for (const [name, value] of headers) if (!first.has(name)) first.set(name, value);
  if (body.length > 0 && !first.has('content-length')) first.set('content-length', String(body.length));
  return { command, headers: Object.fromEntries(first), body: body.toString('hex') };
}

interface Mutation {
  at: number;
  kind: 'flip' | 'insert' | 'delete';
  byte: number;
}

function mutate(bytes: Buffer, mutations: Mutation[]): Buffer {
  const out = [...bytes];
  for (const { at, kind, byte } of mutations) {
    const index = at % (out.length + 1);
    if (kind === 'insert') out.splice(index, 0, byte);
    else if (kind === 'delete') out.splice(index, 1);
    else if (index < out.length) out[index] ^= byte;
  }
  return Buffer.from(out);
}

const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom<Mutation['kind']>('flip', 'insert', 'delete'),
  byte: fc
    .constantFrom(0x00, 0x0a, 0x0d, 0x3a, 0x5c, 0x20, 0xff, 0x41)
    .chain((b) => fc.oneof(fc.constant(b), fc.integer({ min: 0, max: 255 }))),
});

/** A stream of valid frames with heart-beats between them. */
const frameStream = fc.array(fc.tuple(frame, heartbeats), { minLength: 1, maxLength: 4 });
const encode = (stream: [{ command: string; headers: [string, string][]; body: Buffer }, string][]) =>
  Buffer.concat(stream.flatMap(([f, beat]) => [Buffer.from(beat), encodeFrame(f.command, f.headers, '1.2', f.body)]));

describe('Fuzzing the STOMP frame parser', () => {
  it(
    'should decode encoded frames to what was encoded, however the bytes are chunked',
    async () => {
      await checkProperty(
        'stomp parser: round trip under chunking',
        fc.property(frameStream, cuts, (stream, at) => {
          const outcome = decode(split(encode(stream), at), '1.2');
          expect(outcome).toEqual({ frames: stream.map(([f]) => expected(f)), error: null });
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'should decode mutated frames the same whole as chunked, failing only with a parse error',
    async () => {
      await checkProperty(
        'stomp parser: mutated frames, whole vs chunked',
        fc.property(
          frameStream,
          fc.array(mutation, { minLength: 1, maxLength: 6 }),
          cuts,
          version,
          (stream, mutations, at, v) => {
            const bytes = mutate(encode(stream), mutations);
            expect(decode(split(bytes, at), v)).toEqual(decode([bytes], v));
          },
        ),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'should decode random bytes the same whole as chunked, failing only with a parse error',
    async () => {
      const prefix = fc.constantFrom(
        '',
        'SEND\n',
        'CONNECT\naccept-version:1.2\n',
        'SEND\ncontent-length:',
        'ACK\nid:\\',
      );
      await checkProperty(
        'stomp parser: random bytes, whole vs chunked',
        fc.property(prefix, fc.uint8Array({ maxLength: 6000 }), cuts, version, (start, random, at, v) => {
          const bytes = Buffer.concat([Buffer.from(start), Buffer.from(random)]);
          expect(decode(split(bytes, at), v)).toEqual(decode([bytes], v));
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );
});
