import { existsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** Half the machine's memory, MiB: the server thread's default heap limit (`maxHeapMb`). */
function defaultMaxHeapMb(): number {
  return Math.floor(totalmem() / 2 ** 21);
}

/** The heap limit a server thread is started with, refusing anything but a positive integer of MiB. */
function heapLimits(maxHeapMb: number | undefined): ResourceLimits {
  const megabytes = maxHeapMb ?? defaultMaxHeapMb();
  if (!Number.isInteger(megabytes) || megabytes <= 0) {
    throw new RangeError(`maxHeapMb must be a positive integer of MiB, not ${String(maxHeapMb)}`);
  }
  return { maxOldGenerationSizeMb: megabytes };
}

/**
 * Starts the server's worker thread. From the compiled package (`dist/`, what the app and the CLI load) the
 * entry is the `entry.js` beside this file. From the TypeScript sources (the package's jest tests run them
 * through ts-jest) there is no `.js` sibling: the worker then registers a transpile-only hook for `.ts` (sucrase, a
 * dev dependency, 0.3 s for the sources against 3.3 s with the TypeScript compiler; each file's output is kept on disk
 * by `scripts/cached-ts-hook.js`, so only the first start after a change transpiles) and loads `entry.ts`, so it runs
 * the same sources as the test.
 */
export function spawnServerWorker(data: object, maxHeapMb: number | undefined): Worker {
  const resourceLimits = heapLimits(maxHeapMb);
  withoutMemoryReducer();
  const compiled = join(__dirname, 'entry.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData: data, resourceLimits });
  const source = {
    hook: join(__dirname, '..', '..', 'scripts', 'cached-ts-hook.js'),
    entry: join(__dirname, 'entry.ts'),
  };
  const script = `const { hook, entry } = require('node:worker_threads').workerData.source;
    require(hook);
    require(entry);`;
  return new Worker(script, { eval: true, workerData: { ...data, source }, resourceLimits });
}

/**
 * V8's memory reducer collects an isolate's whole heap when its allocation slows down (an idle moment), to return
 * memory. On the server's thread that heap is mostly index entries, tens of millions of small objects on a large
 * store: one such collection took 15–17 s of CPU at 100 times the demo catalogue (bench/README.md, `bulkbuild`), and
 * it came back every couple of minutes of light load. The flag is read when an isolate is created, so this turns it
 * off for isolates started from now on (the server's), not for the caller's own.
 */
function withoutMemoryReducer(): void {
  setFlagsFromString('--no-memory-reducer');
}
