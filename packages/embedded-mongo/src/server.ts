import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Worker } from 'node:worker_threads';
import {
  deserializeError,
  type ControlMessage,
  type EmbeddedMongoOptions,
  type WorkerMessage,
} from './worker/protocol';
import { spawnServerWorker } from './worker/spawn';
import { CommitCounters } from './commit-counters';
import { formatLogEntry, type LogEntry } from './log';

export type { EmbeddedMongoOptions } from './worker/protocol';
export type { LogEntry } from './log';
export { CommitCounters, type CommitCountersOptions } from './commit-counters';

/**
 * Data directories opened by servers of this process. Each worker thread has its own copy of the store's
 * lock bookkeeping and they all share one pid, so only the calling thread can tell two servers apart.
 */
const openDirectories = new Set<string>();
/** The handles whose server threads run, for {@link EmbeddedMongoServer.killThreadsForTests}. */
const running = new Set<EmbeddedMongoServer>();

/**
 * The handle to an embedded server running on its own worker thread: commands, storage and the TTL
 * timer never run on the caller's event loop. Clients connect to `uri` over TCP as to any mongod.
 * Emits 'error' if the worker dies unexpectedly (without a listener the error is written to stderr) and 'log'
 * with a {@link LogEntry} for what an operator should know (without a listener the line goes to stderr).
 */
export class EmbeddedMongoServer extends EventEmitter {
  private stopping: Promise<void> | undefined;
  private exited = false;
  private crash: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly host: string,
    readonly port: number,
    /** The Unix domain socket the server also listens on (`unixSocket: true`), else undefined. */
    readonly socketPath: string | undefined,
    /** The counters the server bumps per write (`commitCounters` option), else undefined. */
    readonly commitCounters: CommitCounters | undefined,
    private readonly release: () => void,
  ) {
    super();
    running.add(this);
    // An uncaught exception in the worker: 'error' comes first, then 'exit'.
    worker.on('error', (error) => (this.crash = error));
    worker.once('exit', (code) => this.onExit(code));
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'log') this.onLog(message.entry);
    });
  }

  get uri(): string {
    return `mongodb://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}`;
  }

  /** The URI of the Unix domain socket (`mongodb://%2F...%2Fmongod.sock`) with `unixSocket: true`, else undefined. */
  get socketUri(): string | undefined {
    return this.socketPath && `mongodb://${encodeURIComponent(this.socketPath)}`;
  }

  /** Resolves once the server listens; rejects (port taken, data directory in use, unreadable store) otherwise. */
  static async start(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongoServer> {
    const host = options.host ?? '127.0.0.1';
    const releaseDirectory = claimDirectory(options.dbPath);
    const socketDir = options.unixSocket && process.platform !== 'win32' ? makeSocketDirectory() : undefined;
    const socketPath = socketDir && join(socketDir, 'mongod.sock');
    const release = (): void => {
      releaseDirectory();
      if (socketDir) rmSync(socketDir, { recursive: true, force: true });
    };
    const counters = options.commitCounters && CommitCounters.create(options.commitCounters);
    const countersData = counters && { buffer: counters.buffer, namespaces: counters.namespaces };
    let worker: Worker;
    try {
      worker = spawnServerWorker({ options, host, socketPath, counters: countersData }, options.maxHeapMb);
    } catch (error) {
      release();
      throw error;
    }
    try {
      const port = await listening(worker);
      return new EmbeddedMongoServer(worker, host, port, socketPath, counters, release);
    } catch (error) {
      await worker.terminate();
      release();
      throw error;
    }
  }

  /**
   * For tests of what depends on a server: ends the thread of every running server of this process abruptly, as a
   * fatal fault in it would (no stop protocol, the store is not closed, connections drop). Each handle then reports
   * the death as it would any other ('error'). Resolves with the number of threads ended.
   */
  static async killThreadsForTests(): Promise<number> {
    const servers = [...running];
    await Promise.all(servers.map((server) => server.worker.terminate()));
    return servers.length;
  }

  /** Stops accepting connections, closes open ones and closes the store after pending writes. */
  stop(): Promise<void> {
    this.stopping ??= this.exited ? Promise.resolve() : this.stopWorker();
    return this.stopping;
  }

  private async stopWorker(): Promise<void> {
    try {
      await requestStop(this.worker);
    } finally {
      await this.worker.terminate();
    }
  }

  private onExit(code: number): void {
    this.exited = true;
    running.delete(this);
    this.release();
    if (this.stopping) return;
    const reason = this.crash ? `: ${this.crash.message}` : ` (exit code ${code})`;
    this.report(new Error(`embedded MongoDB server thread died${reason}`, { cause: this.crash }));
  }

  private onLog(entry: LogEntry): void {
    if (this.listenerCount('log') > 0) this.emit('log', entry);
    else console.error(formatLogEntry(entry));
  }

  private report(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
    else console.error('[embedded-mongo]', error);
  }
}

/**
 * A directory only this user can enter (mkdtemp makes it 0700), so only this user can connect to the socket in it;
 * short enough under the system's temporary directory for the 107-byte limit of a socket path. Removed when the
 * server's thread ends, however it ends; a process killed outright leaves it behind in the temporary directory.
 */
function makeSocketDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'embedded-mongo-'));
}

function claimDirectory(dbPath: string | undefined): () => void {
  if (!dbPath) return () => undefined;
  const dir = resolve(dbPath);
  if (openDirectories.has(dir)) throw new Error(`data directory ${dbPath} is already open in this process`);
  openDirectories.add(dir);
  return () => openDirectories.delete(dir);
}

function listening(worker: Worker): Promise<number> {
  return answer(worker, 'during start', (message) => {
    if (message.type === 'listening') return message.port;
    return message.type === 'startFailed' ? deserializeError(message.error) : undefined;
  });
}

/** Asks the worker to stop; resolves once the store is closed, rejects on a failure or the thread's death. */
async function requestStop(worker: Worker): Promise<void> {
  const stopped = answer(worker, 'while stopping', (message) => {
    if (message.type === 'stopped') return true;
    return message.type === 'stopFailed' ? deserializeError(message.error) : undefined;
  });
  const stop: ControlMessage = { type: 'stop' };
  worker.postMessage(stop);
  await stopped;
}

/**
 * The worker's answer: `settle` maps a message to the result, to an Error (rejects) or to undefined (not the
 * answer, keep waiting). An uncaught error in the thread or its exit rejects.
 */
function answer<T>(
  worker: Worker,
  phase: string,
  settle: (message: WorkerMessage) => T | Error | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onError = (error: Error): void => finish(error);
    const onExit = (code: number): void =>
      finish(new Error(`embedded MongoDB server thread exited ${phase} (exit code ${code})`));
    const onMessage = (message: WorkerMessage): void => {
      const result = settle(message);
      if (result !== undefined) finish(result);
    };
    const finish = (result: T | Error): void => {
      // Only these listeners: removeAllListeners() would also drop the Worker's internal ones.
      worker.off('error', onError).off('exit', onExit).off('message', onMessage);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    worker.on('error', onError).on('exit', onExit).on('message', onMessage);
  });
}
