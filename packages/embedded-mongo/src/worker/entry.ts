import { parentPort, workerData } from 'node:worker_threads';
import { setLogSink } from '../log';
import { WireListener } from './listener';
import { lowerThreadPriority, PRIORITY_STEPS } from './thread-priority';
import { serializeError, type ControlMessage, type EmbeddedMongoOptions, type WorkerMessage } from './protocol';

/** The worker thread's entry: starts the server, reports its port, stops it on request. */
const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
const { options, host } = workerData as { options: EmbeddedMongoOptions; host: string };
lowerThreadPriority(PRIORITY_STEPS);
setLogSink((entry) => post({ type: 'log', entry }));

WireListener.start(options, host).then(
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
