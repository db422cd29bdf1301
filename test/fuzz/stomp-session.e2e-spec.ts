import fc from 'fast-check';
import WebSocket from 'ws';
import { Role } from '../../src/common/principal';
import { StompFrame, StompVersion } from '../../src/realtime/stomp/frame';
import { encodeFrame } from '../../src/realtime/stomp/frame-encoder';
import { StompFrameParser } from '../../src/realtime/stomp/frame-parser';
import { TestApp } from '../support/test-app';
import { anyJson, anyText, headerValue } from './support/arbitraries';
import { assertErrorBody, assertHealthy, FuzzClient, startFuzzApp } from './support/fuzz-http';
import { checkProperty, fuzzRuns, fuzzTimeout } from './support/fuzz-property';

/**
 * The STOMP session state machine over a real WebSocket: random sequences of frames with random headers and bodies,
 * each on a fresh connection, ending with `DISCONNECT`. The server answers every sequence to the end (a RECEIPT for
 * the DISCONNECT, or an ERROR for a protocol error, then closes), never crashes a session ("Internal error"),
 * answers failed requests in the DESIGN §3 shape, and stays healthy.
 */
const RUNS = fuzzRuns(100);
const TIMEOUT = fuzzTimeout(RUNS, 80);
const HANG_MS = 15_000;
const END = 'fuzz-end';

const CLIENT_COMMANDS = ['SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT'];
/** Commands a client may send at all; anything else after CONNECT is a protocol error. */
const KNOWN = new Set([...CLIENT_COMMANDS, 'CONNECT', 'STOMP']);

const destination = fc.oneof(
  fc.constantFrom(
    '/request/bean',
    '/request/document',
    '/request/repository',
    '/request/json',
    '/request/render',
    '/request/x',
    '/topic/news',
    '/topic/jobs',
    '/topic/job/1',
    '/topic/order/000000000000000000000000',
    '/topic/customer/x',
    '/user/topic/default/json',
    '/user/other/topic/x',
    '/queue/a',
    '/topic/../request/bean',
    '/topic/*',
    '',
    'x',
  ),
  headerValue,
);

interface Tokens {
  user: string;
  admin: string;
}

function headersFor(tokens: Tokens): fc.Arbitrary<[string, string][]> {
  const header = fc.oneof(
    fc.tuple(fc.constant('destination'), destination),
    fc.tuple(
      fc.constantFrom('id', 'subscription', 'message-id', 'transaction', 'receipt'),
      fc.oneof(fc.constantFrom('1', '2', 'a'), headerValue),
    ),
    fc.tuple(fc.constant('ack'), fc.constantFrom('auto', 'client', 'client-individual', 'none', '')),
    fc.tuple(fc.constant('accept-version'), fc.constantFrom('1.2', '1.0,1.1,1.2', '1.1', '1.0', '2.0', '', 'x')),
    fc.tuple(
      fc.constant('heart-beat'),
      fc.constantFrom('0,0', '10000,10000', '1,1', '-1,5', 'x', '0,1', '99999999999,0'),
    ),
    fc.tuple(fc.constant('host'), headerValue),
    fc.tuple(
      fc.constant('Authorization'),
      fc.constantFrom(`Bearer ${tokens.user}`, `Bearer ${tokens.admin}`, 'Bearer x.y.z', 'Basic a', ''),
    ),
    fc.tuple(
      fc.constantFrom('Lang-Context', 'Site-Context'),
      fc.oneof(fc.constantFrom('en', 'de', 'default', '../../x', ''), headerValue),
    ),
    fc.tuple(fc.constant('content-type'), fc.constantFrom('application/json', 'text/plain', '')),
    fc.tuple(anyText, anyText),
  );
  return fc.array(header, { maxLength: 6 });
}

const body = fc.oneof(
  fc.constant(''),
  fc
    .record(
      {
        beanId: fc.constantFrom('profileSearchServiceImpl', 'documentStorageServiceImpl', 'x'),
        functionName: anyText,
        args: fc.array(anyJson, { maxLength: 2 }),
        actionId: anyText,
        eventType: fc.constantFrom('USER', 'GLOBAL', 'SHARED', 'x'),
        sharedEndpoint: anyText,
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  anyJson.map((value) => JSON.stringify(value) ?? ''),
  fc.string({ maxLength: 100 }),
);

interface FuzzFrame {
  command: string;
  headers: [string, string][];
  body: string;
}

function framesFor(tokens: Tokens): fc.Arbitrary<FuzzFrame[]> {
  const command = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...CLIENT_COMMANDS) },
    { weight: 1, arbitrary: fc.constantFrom('CONNECT', 'STOMP', 'MESSAGE', 'ERROR', 'FOO', 'send') },
  );
  const frame = fc.record({ command, headers: headersFor(tokens), body });
  const connect = fc.record({
    command: fc.constantFrom('CONNECT', 'STOMP'),
    headers: headersFor(tokens).map((headers): [string, string][] => [['accept-version', '1.2'], ...headers]),
    body: fc.constant(''),
  });
  return fc
    .tuple(
      fc.oneof({ weight: 6, arbitrary: connect }, { weight: 1, arbitrary: frame }),
      fc.array(frame, { maxLength: 7 }),
    )
    .map(([first, rest]) => [first, ...rest]);
}

/** The wire form of a frame; a command outside [A-Z] goes out raw, as a broken client would send it. */
function wire({ command, headers, body: text }: FuzzFrame): Buffer {
  return encodeFrame(command, headers, '1.2', text);
}

/** The frames the server reads: up to the first DISCONNECT, after which it closes. */
function processed(frames: FuzzFrame[]): FuzzFrame[] {
  const disconnect = frames.findIndex((frame) => frame.command === 'DISCONNECT');
  return frames.slice(0, disconnect + 1);
}

/** A sequence the server must answer with an ERROR: the first frame is no CONNECT, or a command no client sends. */
function mustFail(frames: FuzzFrame[]): boolean {
  const [first, ...rest] = processed(frames);
  return !['CONNECT', 'STOMP'].includes(first.command) || rest.some((frame) => !KNOWN.has(frame.command));
}

/**
 * The version the server answers in, which decides how its header values are escaped: what the CONNECT offers
 * (highest first; no `accept-version` is STOMP 1.0, where nothing is escaped), else 1.2.
 */
function answerVersion([first]: FuzzFrame[]): StompVersion {
  if (!['CONNECT', 'STOMP'].includes(first.command)) return '1.2';
  const offered = first.headers.find(([name]) => name === 'accept-version')?.[1];
  if (offered === undefined) return '1.0';
  const versions = offered.split(',').map((v) => v.trim());
  return (['1.2', '1.1', '1.0'] as const).find((v) => versions.includes(v)) ?? '1.2';
}

/** Sends `chunks` on a fresh connection and collects every frame until the server closes it. */
function converse(url: string, chunks: Buffer[], version: StompVersion = '1.2'): Promise<StompFrame[]> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, ['v12.stomp']);
  const parser = new StompFrameParser({ maxFrameBytes: 1 << 22, maxHeaders: 256 });
  parser.version = version;
  const frames: StompFrame[] = [];
  return new Promise((resolve, reject) => {
    const hang = setTimeout(() => {
      ws.terminate();
      reject(
        new Error(
          `The server did not close within ${HANG_MS} ms; frames so far: ${frames.map((f) => f.command).join(',')}`,
        ),
      );
    }, HANG_MS);
    ws.on('message', (data: Buffer) => {
      try {
        parser.push(data, (frame) => frames.push(frame));
      } catch (error) {
        clearTimeout(hang);
        ws.terminate();
        reject(new Error(`The server's answer does not parse as STOMP ${version}: ${(error as Error).message}`));
      }
    });
    ws.on('open', () => chunks.forEach((chunk) => ws.send(chunk)));
    ws.on('error', (error) => {
      clearTimeout(hang);
      reject(error);
    });
    ws.on('close', () => {
      clearTimeout(hang);
      resolve(frames);
    });
  });
}

function assertAnswered(frames: FuzzFrame[], answers: StompFrame[]): void {
  const errors = answers.filter((frame) => frame.command === 'ERROR');
  const last = processed(frames).at(-1);
  // the final DISCONNECT asks for a receipt; one sent earlier by the fuzzer may not
  const ended = last?.headers.some(([name]) => name === 'receipt')
    ? answers.some((frame) => frame.command === 'RECEIPT')
    : true;
  const summary = () => answers.map((f) => `${f.command} ${f.headers.message ?? ''}`).join(' | ');
  if (errors.some((frame) => !frame.headers.message)) throw new Error(`An ERROR without a message: ${summary()}`);
  if (errors.some((frame) => frame.headers.message === 'Internal error'))
    throw new Error(`A session crashed: ${summary()}`);
  if (errors.length === 0 && !ended) throw new Error(`Closed without ERROR or the final RECEIPT: ${summary()}`);
  if (mustFail(frames) && errors.length === 0)
    throw new Error(`A protocol error was not answered with ERROR: ${summary()}`);
  for (const frame of answers.filter((f) => f.command === 'MESSAGE')) {
    const reply = JSON.parse(frame.body.toString()) as { status?: number };
    if (typeof reply.status === 'number' && reply.status >= 400) {
      if (reply.status >= 500) throw new Error(`A ${reply.status} reply: ${frame.body.toString()}`);
      assertErrorBody(JSON.stringify(errorPart(reply)), reply.status);
    }
  }
}

/** The error fields of a reply `{actionId, status, error, message, ...}` (DESIGN §5). */
function errorPart(reply: Record<string, unknown>): Record<string, unknown> {
  const { actionId: _actionId, payload: _payload, ...error } = reply;
  return error;
}

describe('Fuzzing the STOMP session', () => {
  let t: TestApp;
  let client: FuzzClient;
  let tokens: Tokens;

  beforeAll(async () => {
    t = await startFuzzApp();
    client = new FuzzClient(t.url);
    tokens = { user: t.tokenFor(Role.USER), admin: t.tokenFor(Role.ADMIN) };
  });
  afterAll(async () => {
    client.close();
    await t.stop();
  });

  it(
    'should answer any sequence of frames to its end, with ERROR for protocol errors, and never crash',
    async () => {
      const subscribeToReplies = fc.boolean();
      await checkProperty(
        'stomp session: random frame sequences',
        fc.asyncProperty(framesFor(tokens), subscribeToReplies, fc.boolean(), async (frames, subscribe, oneChunk) => {
          const sequence = [...frames];
          if (subscribe && sequence.length > 1) {
            sequence.splice(1, 0, {
              command: 'SUBSCRIBE',
              headers: [
                ['id', 'replies'],
                ['destination', '/user/topic/default/json'],
              ],
              body: '',
            });
          }
          sequence.push({ command: 'DISCONNECT', headers: [['receipt', END]], body: '' });
          const bytes = sequence.map(wire);
          const answers = await converse(t.url, oneChunk ? [Buffer.concat(bytes)] : bytes, answerVersion(sequence));
          assertAnswered(sequence, answers);
        }),
        RUNS,
        // found by `npm run fuzz`: an ERROR to a STOMP 1.0 CONNECT carries the refused value unescaped
        [[[{ command: 'CONNECT', headers: [['Lang-Context', '\\']], body: '' }], false, false]],
      );
      await assertHealthy(client);
      const answers = await converse(t.url, [
        wire({ command: 'CONNECT', headers: [['accept-version', '1.2']], body: '' }),
        wire({ command: 'DISCONNECT', headers: [['receipt', END]], body: '' }),
      ]);
      expect(answers.map((frame) => frame.command)).toEqual(['CONNECTED', 'RECEIPT']);
    },
    TIMEOUT,
  );
});
