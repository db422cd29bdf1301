import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { stopChild } from '../child-process';
import { median } from '../median';

/**
 * `npm run bench:relay [-- --rounds 3 --seconds 5 --subs 10,100 --window 1000]`
 * STOMP deliveries per second, one publisher and N subscribers on one topic, two ways in the same run:
 * - direct: every client connected to RabbitMQ Web-STOMP (ws://127.0.0.1:15674/ws);
 * - relay: two instances of this app relaying through that RabbitMQ, subscribers spread evenly over both,
 *   the publisher connected to the first.
 * With `--baseline <dir>` (a checkout of an earlier commit whose `node_modules` resolves), a third way: two instances
 * of that build relaying alike, in a namespace of their own, so that a change to the relay is measured before and
 * after in one run.
 * The publisher keeps at most `--window` deliveries outstanding (sent × N − delivered), so the figure is the
 * sustainable rate rather than queue filling; rounds alternate between the ways, figures are medians.
 * Clients speak raw STOMP 1.2 (no heart-beats) so that the client process costs little of the shared CPU.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    subs: { type: 'string', default: '10,100' },
    window: { type: 'string', default: '1000' },
    baseline: { type: 'string' },
  },
});

const ROOT = join(__dirname, '..', '..');
const RABBITMQ = 'ws://127.0.0.1:15674/ws';
const BODY = JSON.stringify({ event: 'bench', pad: 'x'.repeat(160) });
const NUL = 0;

/** A raw STOMP 1.2 client over WebSocket that counts the MESSAGE frames it receives. */
class BenchClient {
  received = 0;
  onMessage: () => void = () => undefined;

  private constructor(private readonly socket: WebSocket) {}

  static async connect(url: string): Promise<BenchClient> {
    const socket = new WebSocket(url, ['v12.stomp'], { perMessageDeflate: false });
    const client = new BenchClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      const connect = 'CONNECT\naccept-version:1.2\nhost:/\nheart-beat:0,0\nlogin:guest\npasscode:guest\n\n\0';
      socket.once('open', () => socket.send(connect));
      socket.once('message', (data: Buffer) =>
        data.toString().startsWith('CONNECTED') ? resolve() : reject(new Error(`refused: ${data.toString()}`)),
      );
    });
    socket.on('message', (data: Buffer) => client.count(data));
    return client;
  }

  subscribe(destination: string, receipt: string): Promise<void> {
    const received = new Promise<void>((resolve) => {
      const onReceipt = (data: Buffer) => {
        if (!data.toString().startsWith('RECEIPT')) return;
        this.socket.off('message', onReceipt);
        resolve();
      };
      this.socket.on('message', onReceipt);
    });
    this.socket.send(`SUBSCRIBE\nid:0\ndestination:${destination}\nreceipt:${receipt}\n\n\0`);
    return received;
  }

  send(destination: string, body: string): void {
    this.socket.send(`SEND\ndestination:${destination}\ncontent-type:application/json\n\n${body}\0`);
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  close(): void {
    this.socket.terminate();
  }

  /** One WebSocket message may carry several frames (the app batches); each frame ends with NUL. */
  private count(data: Buffer): void {
    let start = 0;
    for (let end = data.indexOf(NUL); end >= 0; end = data.indexOf(NUL, start)) {
      let head = start;
      while (data[head] === 0x0a || data[head] === 0x0d) head++;
      if (data.toString('latin1', head, head + 7) === 'MESSAGE') this.received++;
      start = end + 1;
    }
    this.onMessage();
  }
}

interface Setup {
  name: string;
  /** Where each subscriber connects, round robin. */
  subscriberUrls: string[];
  publisherUrl: string;
  destination: string;
}

async function deliveriesPerSecond(setup: Setup, subscriberCount: number, seconds: number): Promise<number> {
  const subscribers: BenchClient[] = [];
  const urls = setup.subscriberUrls;
  for (let i = 0; i < subscriberCount; i++) subscribers.push(await BenchClient.connect(urls[i % urls.length]));
  const publisher = await BenchClient.connect(setup.publisherUrl);
  try {
    await Promise.all(subscribers.map((s, i) => s.subscribe(setup.destination, `r${i}`)));
    await primeRoutes(publisher, subscribers, setup.destination);
    return await publishFor(setup.name, publisher, subscribers, setup.destination, seconds);
  } finally {
    for (const client of [publisher, ...subscribers]) client.close();
  }
}

/**
 * A RECEIPT from an instance says its client is subscribed there, not that the instance's SUBSCRIBE upstream has
 * reached RabbitMQ yet: probes go out until every subscriber has one, then the counts start from zero.
 */
async function primeRoutes(publisher: BenchClient, subscribers: BenchClient[], destination: string): Promise<void> {
  while (subscribers.some((s) => s.received === 0)) {
    publisher.send(destination, '{"probe":true}');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 200)); // the last probes' deliveries
  for (const s of subscribers) s.received = 0;
}

/** Publishes within the window for `seconds`, waits for the deliveries outstanding (at most 10 s), and rates them. */
async function publishFor(
  name: string,
  publisher: BenchClient,
  subscribers: BenchClient[],
  destination: string,
  seconds: number,
): Promise<number> {
  const window = Number(values.window);
  const delivered = () => subscribers.reduce((sum, s) => sum + s.received, 0);
  let wake: (() => void) | undefined;
  for (const s of subscribers) s.onMessage = () => wake?.();
  const waitForDeliveries = () => new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, 50)));
  let sent = 0;
  let lastDelivery = 0;
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    if (sent * subscribers.length - delivered() >= window || publisher.bufferedAmount > 1 << 20) {
      await waitForDeliveries();
      continue;
    }
    publisher.send(destination, BODY);
    sent++;
    if (sent % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  const drainUntil = Date.now() + 10_000;
  while (delivered() < sent * subscribers.length && Date.now() < drainUntil) {
    const before = delivered();
    await waitForDeliveries();
    if (delivered() > before) lastDelivery = Date.now();
  }
  const missing = sent * subscribers.length - delivered();
  if (missing > 0) process.stderr.write(`  ${name}: ${missing} deliveries missing after the drain\n`);
  return delivered() / ((Math.max(lastDelivery, Date.now() - 1) - started) / 1000);
}

interface Instance {
  child: ChildProcess;
  url: string;
}

function startInstance(root: string, dataDir: string, namespace: string): Promise<Instance> {
  mkdirSync(dataDir);
  const child = spawn(process.execPath, ['test/support/run-ts.js', 'bench/relay/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      STOMP_RELAY_URL: 'ws://guest:guest@127.0.0.1:15674/ws',
      STOMP_RELAY_NAMESPACE: namespace,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}`)));
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, ...(JSON.parse(line) as { url: string }) }));
  });
}

/** Two instances of the build at `root` relaying in a namespace of their own; subscribers alternate between them. */
async function relaySetup(name: string, root: string, dataDir: string, instances: Instance[]): Promise<Setup> {
  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const pair: Instance[] = [];
  for (const side of ['a', 'b']) pair.push(await startInstance(root, join(dataDir, `${name}-${side}`), namespace));
  instances.push(...pair);
  const wsUrls = pair.map(({ url }) => `${url.replace(/^http/, 'ws')}/ws`);
  return { name, subscriberUrls: wsUrls, publisherUrl: wsUrls[0], destination: '/topic/bench' };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-relay-'));
  const instances: Instance[] = [];
  try {
    const direct = `/topic/bench-${randomBytes(4).toString('hex')}.direct`;
    const setups: Setup[] = [
      { name: 'direct', subscriberUrls: [RABBITMQ], publisherUrl: RABBITMQ, destination: direct },
      await relaySetup('relay', ROOT, dataDir, instances),
    ];
    if (values.baseline) setups.push(await relaySetup('baseline relay', values.baseline, dataDir, instances));
    for (const subscriberCount of values.subs.split(',').map(Number)) {
      const rates = new Map<string, number[]>(setups.map((s) => [s.name, []]));
      for (const setup of setups) await deliveriesPerSecond(setup, subscriberCount, 1); // warm-up
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const setup of setups) {
          rates.get(setup.name)!.push(await deliveriesPerSecond(setup, subscriberCount, Number(values.seconds)));
        }
      }
      process.stdout.write(`${report(subscriberCount, rates)}\n`);
    }
  } finally {
    await Promise.all(instances.map(({ child }) => stopChild(child)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Median deliveries/s of each way with its rounds, and each relay's ratio to RabbitMQ directly (and to the baseline). */
function report(subscriberCount: number, rates: Map<string, number[]>): string {
  const medians = new Map([...rates].map(([name, list]) => [name, median(list)]));
  const direct = medians.get('direct')!;
  const ways = [...rates].map(([name, list]) => {
    const ratio = name === 'direct' ? '' : `, ${(medians.get(name)! / direct).toFixed(2)}× direct`;
    return `${name} ${Math.round(medians.get(name)!)} deliveries/s (${list.map(Math.round).join(', ')}${ratio})`;
  });
  const baseline = medians.get('baseline relay');
  const change = baseline ? `; relay / baseline relay ${(medians.get('relay')! / baseline).toFixed(2)}×` : '';
  return `${subscriberCount} subscribers: ${ways.join('; ')}${change}`;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
