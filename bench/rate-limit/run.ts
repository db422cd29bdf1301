import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { SlidingWindowStorage } from '../../src/bean/admission/sliding-window.storage';
import { stopChild } from '../child-process';
import { median } from '../median';

/**
 * `npm run bench:rate-limit [-- --rounds 5 --seconds 3 --connections 10]`
 * The per-request cost of counting the bean rate limit in Redis (`REDIS_URL`, shared by every instance) against
 * counting it in-process: the same bean call with an ADMIN token (one counter hit per call) on two servers, one per
 * storage, each in its own process, started in the same run. Rounds alternate between them; figures are medians of
 * req/s and of the server's CPU time per request (Redis itself runs outside the server and is not counted there).
 * Then the storages alone, in this process: the mean time of one counter hit, awaited one after the other.
 */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { average: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types

const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>;

const ROOT = join(__dirname, '..', '..');
const BODY = JSON.stringify({ beanId: 'dummyTree', functionName: 'getElements', args: [] });
const HEADERS = { 'content-type': 'application/json', 'lang-context': 'en', 'site-context': 'default' };
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
  },
});

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
  token: string;
}

interface Sample {
  rate: number;
  latencyMs: number;
  cpuPerRequest: number;
}

function startServer(name: string, dataDir: string, redisUrl: string): Promise<Server> {
  mkdirSync(dataDir);
  const child = spawn(process.execPath, ['test/support/run-ts.js', 'bench/rate-limit/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} server exited with ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ name, child, ...(JSON.parse(line) as Pick<Server, 'url' | 'token'>) }),
    );
  });
}

async function serverCpuMicros(url: string): Promise<number> {
  const usage = (await (await fetch(`${url}/bench/cpu`)).json()) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

async function measure({ name, url, token }: Server, seconds: number): Promise<Sample> {
  const cpuBefore = await serverCpuMicros(url);
  const result = await autocannon({
    url: `${url}/api/v1/bean/request`,
    method: 'POST',
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: BODY,
    connections: Number(values.connections),
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const cpu = (await serverCpuMicros(url)) - cpuBefore;
  const { requests, latency } = result;
  return { rate: requests.average, latencyMs: latency.average, cpuPerRequest: cpu / requests.total };
}

/** Mean µs per `increment`, one at a time, under one key (a principal calling in a loop). */
async function microsPerHit(storage: ThrottlerStorage, hits: number): Promise<number> {
  const key = `bench-${Date.now()}`;
  const started = process.hrtime.bigint();
  for (let i = 0; i < hits; i++) await storage.increment(key, 60_000, 1e9, 60_000, 'bean-calls');
  return Number(process.hrtime.bigint() - started) / 1000 / hits;
}

async function compareStorages(): Promise<void> {
  const redis = new Redis(REDIS_URL, { keyPrefix: `bench:${Date.now()}:` });
  try {
    const storages: [string, ThrottlerStorage][] = [
      ['in-process', new SlidingWindowStorage()],
      ['redis', new ThrottlerStorageRedisService(redis)],
    ];
    const samples = new Map<string, number[]>(storages.map(([name]) => [name, []]));
    for (const [, storage] of storages) await microsPerHit(storage, 1000); // warm-up
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [name, storage] of storages) samples.get(name)!.push(await microsPerHit(storage, 5000));
    }
    const [local, shared] = ['in-process', 'redis'].map((name) => median(samples.get(name)!));
    const perHit = `in-process ${local.toFixed(1)} µs, redis ${shared.toFixed(1)} µs (round trip included)`;
    process.stdout.write(`one counter hit: ${perHit}\n`);
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccb-bench-rate-limit-'));
  const servers: Server[] = [];
  try {
    servers.push(await startServer('in-process', join(dataDir, 'local'), ''));
    servers.push(await startServer('redis', join(dataDir, 'redis'), REDIS_URL));
    const samples = new Map<string, Sample[]>(servers.map((s) => [s.name, []]));
    for (const server of servers) await measure(server, 1); // warm-up
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const server of servers) samples.get(server.name)!.push(await measure(server, Number(values.seconds)));
    }
    const medianOf = (list: Sample[], field: keyof Sample) => median(list.map((sample) => sample[field]));
    const figures = new Map(
      [...samples].map(([name, list]) => [
        name,
        { rate: medianOf(list, 'rate'), latencyMs: medianOf(list, 'latencyMs'), cpu: medianOf(list, 'cpuPerRequest') },
      ]),
    );
    for (const [name, f] of figures) {
      const rounds = samples
        .get(name)!
        .map((s) => Math.round(s.rate))
        .join(', ');
      process.stdout.write(
        `${name.padEnd(11)} ${String(Math.round(f.rate)).padStart(6)} req/s  ` +
          `${f.latencyMs.toFixed(2)} ms mean latency  ` +
          `${f.cpu.toFixed(0)} µs server CPU/req   rounds: ${rounds}\n`,
      );
    }
    const [local, redis] = [figures.get('in-process')!, figures.get('redis')!];
    process.stdout.write(
      `redis/in-process: ${(redis.rate / local.rate).toFixed(3)}× req/s; ` +
        `+${(1000 / redis.rate - 1000 / local.rate).toFixed(3)} ms per request at ${values.connections} connections; ` +
        `server CPU/req ${(redis.cpu - local.cpu).toFixed(0)} µs more\n`,
    );
  } finally {
    await Promise.all(servers.map((s) => stopChild(s.child)));
    rmSync(dataDir, { recursive: true, force: true });
  }
  await compareStorages();
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
