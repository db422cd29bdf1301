import { parentPort, workerData } from 'node:worker_threads';
import { setLogSink } from '../log';
import { WireListener } from './listener';
import { lowerThreadPriority, PRIORITY_STEPS } from './thread-priority';
import {
  serializeError,
  type ControlMessage,
  type CountersData,
  type EmbeddedMongoOptions,
  type WorkerMessage,
} from './protocol';

/** The worker thread's entry: starts the server, reports its port, stops it on request. */
const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
const { options, host, socketPath, counters } = workerData as {
  options: EmbeddedMongoOptions;
  host: string;
  socketPath?: string;
  counters?: CountersData;
};
if (options.lowerPriority !== false) lowerThreadPriority(PRIORITY_STEPS);
process.on('unhandledRejection', ignoreLmdbCommitEcho);
setLogSink((entry) => post({ type: 'log', entry }));

WireListener.start(options, host, socketPath, counters).then(
  (listener) => {
    port.on('message', (message: ControlMessage) => {
      if (message.type !== 'stop') return;
      listener.stop().then(
        () => post({ type: 'stopped' }),
        (error: unknown) => post({ type: 'stopFailed', error: serializeError(error) }),
      );
    });
    post({ type: 'listening', port: listener.port });
  },
  (error: unknown) => post({ type: 'startFailed', error: serializeError(error) }),
);

/**
 * When an lmdb transaction fails (a full disk), lmdb-js may also reject write promises nobody holds, each with a
 * generic error carrying `commitError` (seen on a 20 MiB tmpfs filled by the store itself); the store gets the same
 * failure from the writes it awaits and reports it to the writers. Those echoes must not end the thread; any other
 * unhandled rejection still does.
 */
function ignoreLmdbCommitEcho(reason: unknown): void {
  if (reason instanceof Error && 'commitError' in reason) return;
  throw reason;
}
