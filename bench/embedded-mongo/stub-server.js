'use strict';
/**
 * The baseline of find-by-id.js, run as a worker thread: a MongoDB wire-protocol server that answers every command
 * `ok: 1` and does nothing else. `hello`/`isMaster` get just what the driver needs to connect; `find` gets an empty
 * cursor. OP_MSG, and OP_QUERY for the legacy handshake. Posts its port to the parent. Runs at the embedded
 * server's thread priority, so neither server is favoured by the scheduler. With `workerData.socketPath` it also
 * listens on that Unix domain socket (command-cost.js, driver-cost.js, through thread-cpu.js); with `workerData.sessions === false` its hello leaves out
 * `logicalSessionTimeoutMinutes`, so that the driver sends no `lsid` (driver-cost.js).
 */
const { createServer } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { deserialize, serialize, Long } = require('bson');
const { lowerThreadPriority, PRIORITY_STEPS } = require('../../packages/embedded-mongo/dist/worker/thread-priority');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

function answer(command) {
  const name = Object.keys(command)[0];
  if (name === 'hello' || name.toLowerCase() === 'ismaster') {
    return {
      [name === 'hello' ? 'isWritablePrimary' : 'ismaster']: true,
      helloOk: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      localTime: new Date(),
      ...(workerData?.sessions === false ? {} : { logicalSessionTimeoutMinutes: 30 }),
      minWireVersion: 0,
      maxWireVersion: 21,
      ok: 1,
    };
  }
  if (name === 'find') {
    return { cursor: { id: Long.ZERO, ns: `${command.$db}.${command.find}`, firstBatch: [] }, ok: 1 };
  }
  return { ok: 1 };
}

function reply(message) {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) {
    // flagBits (4 bytes), then section kind 0 and the body; document sequences do not matter here.
    const body = serialize(answer(deserialize(message.subarray(21, 21 + message.readInt32LE(21)))));
    return frame(requestId, OP_MSG, [Buffer.alloc(5), body]);
  }
  if (opCode === OP_QUERY) {
    const nameEnd = message.indexOf(0, 20);
    const query = deserialize(message.subarray(nameEnd + 9, nameEnd + 9 + message.readInt32LE(nameEnd + 9)));
    const prefix = Buffer.alloc(20);
    prefix.writeInt32LE(1, 16); // numberReturned
    return frame(requestId, OP_REPLY, [prefix, serialize(answer(query.$query ?? query))]);
  }
  throw new Error(`unexpected opCode ${opCode}`);
}

function frame(responseTo, opCode, parts) {
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + parts.reduce((sum, part) => sum + part.length, 0), 0);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, ...parts]);
}

function serve(socket) {
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const size = pending.readInt32LE(0);
      socket.write(reply(pending.subarray(0, size)));
      pending = pending.subarray(size);
    }
  });
  socket.on('error', () => socket.destroy());
}

const server = createServer(serve);
lowerThreadPriority(PRIORITY_STEPS);
const unixServer = workerData?.socketPath ? createServer(serve).listen(workerData.socketPath) : undefined;
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
parentPort.once('message', () => {
  unixServer?.close();
  server.close(() => process.exit(0));
});
