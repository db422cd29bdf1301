import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { SlidingWindowStorage } from '../../src/bean/admission/sliding-window.storage';

/**
 * `node test/support/run-ts.js bench/gateway/throttler-storage.ts`: µs per rate-limit hit of one busy key, by how
 * many hits its one-minute window already holds, for @nestjs/throttler's storage and ours.
 */
const TTL = 60_000;
const TIMED_HITS = 2000;

async function microsPerHit(storage: ThrottlerStorage, logSize: number): Promise<number> {
  const hit = () => storage.increment('busy', TTL, 1e9, TTL, 'bean-calls');
  for (let i = 0; i < logSize; i++) await hit();
  const start = process.hrtime.bigint();
  for (let i = 0; i < TIMED_HITS; i++) await hit();
  return Number(process.hrtime.bigint() - start) / TIMED_HITS / 1000;
}

async function main(): Promise<void> {
  for (const logSize of [0, 1200, 10_000, 60_000]) {
    const library = new ThrottlerStorageService();
    const theirs = await microsPerHit(library, logSize);
    library.onApplicationShutdown();
    const ours = await microsPerHit(new SlidingWindowStorage(), logSize);
    process.stdout.write(
      `log of ${String(logSize).padStart(6)} hits: @nestjs/throttler ${theirs.toFixed(2).padStart(8)} µs, SlidingWindowStorage ${ours.toFixed(2)} µs\n`,
    );
  }
}

void main();
