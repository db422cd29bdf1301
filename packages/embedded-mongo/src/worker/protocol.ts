import type { CommitCountersOptions } from '../commit-counters';
import type { LogEntry } from '../log';

/** What the calling thread and the server's worker thread say to each other (plain, structured-cloneable data). */

export interface EmbeddedMongoOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  /** Data directory; unset means in-memory. */
  dbPath?: string;
  /** How often expired TTL documents (and idle cursors and sessions) are removed; default 60 000 ms, as MongoDB. */
  ttlIntervalMs?: number;
  /**
   * Default true: the server's thread runs 10 nice levels below its caller (Linux), so that its queries yield the CPU
   * to the caller's event loop. false keeps the caller's priority, for a process that runs nothing but the server
   * (the CLI), where the lowered priority protects nothing and only delays each wake-up of the server's thread.
   */
  lowerPriority?: boolean;
  /**
   * Default false. true: the server also listens on a Unix domain socket in a private directory (mode 0700) made for
   * it, named by `socketUri`; for a client in the same process or on the same machine, each round trip then costs
   * fewer system calls than over TCP loopback, and only this user can connect. TCP stays on for everyone else.
   * Ignored on Windows.
   */
  unixSocket?: boolean;
  /**
   * Commit counters shared with the caller's thread (`EmbeddedMongoServer.commitCounters`): a slot per document and
   * per namespace that the server bumps for every write of a watched namespace before any client is answered. For a
   * cache in the caller's process that must see every write, whichever client made it, on its next read. Unset: none.
   */
  commitCounters?: CommitCountersOptions;
  /**
   * The server thread's V8 heap limit for old objects, MiB, where every document and index key lives. Default: half
   * the machine's memory (`defaultMaxHeapMb`); V8's own default for a thread stops near 4 GiB however large the
   * machine. A positive integer. `serverStatus.embeddedMongo.heap` reports the limit the thread got.
   */
  maxHeapMb?: number;
}

/** The commit counters as the server's thread gets them: the shared memory and the namespaces watched. */
export interface CountersData {
  buffer: SharedArrayBuffer;
  namespaces?: string[];
}

/** An error as it crosses threads: structured cloning keeps only message and stack, not `code` or `errno`. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** Own primitive properties such as `code`, `errno`, `syscall`, `address`, `port`. */
  properties: Record<string, string | number | boolean>;
}

export type WorkerMessage =
  | { type: 'listening'; port: number }
  | { type: 'startFailed'; error: SerializedError }
  | { type: 'stopped' }
  | { type: 'stopFailed'; error: SerializedError }
  | { type: 'log'; entry: LogEntry };

export type ControlMessage = { type: 'stop' };

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), properties: {} };
  const properties: SerializedError['properties'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) properties[key] = value as string | number | boolean;
  }
  return { name: error.name, message: error.message, stack: error.stack, properties };
}

/** Rebuilds the error on the calling thread, keeping the worker's stack (where it happened). */
export function deserializeError(serialized: SerializedError): Error {
  const error = Object.assign(new Error(serialized.message), serialized.properties);
  error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
