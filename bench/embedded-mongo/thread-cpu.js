'use strict';
/**
 * What the command benches (command-cost.js, driver-cost.js) share: CPU time per thread of this process from /proc
 * (Linux), the threads a server adds when it starts, the stub server (stub-server.js) on a worker thread, medians.
 */
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const threads = () => readdirSync('/proc/self/task');

/** CPU time (ns) of threads of this process, from their schedstat. */
function cpuNanos(threadIds) {
  return threadIds.reduce((sum, id) => {
    const file = `/proc/self/task/${id}/schedstat`;
    return existsSync(file) ? sum + Number(readFileSync(file, 'utf8').split(' ')[0]) : sum;
  }, 0);
}

/** Runs `start` and returns what it returns with the threads it added to this process. */
async function withNewThreads(start) {
  const before = new Set(threads());
  const started = await start();
  await new Promise((resolve) => setTimeout(resolve, 100)); // a worker's helper threads start lazily
  return { ...started, threads: threads().filter((id) => !before.has(id)) };
}

/**
 * The stub server on a worker thread, listening on TCP and on the Unix domain socket `socketPath`; `options` go to
 * it as worker data (`sessions: false`: no logical sessions). Returns its TCP port, the socket's URI and `stop`.
 */
async function startStub(socketPath, options = {}) {
  const worker = new Worker(path.join(__dirname, 'stub-server.js'), { workerData: { socketPath, ...options } });
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const stop = async () => {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await exited;
  };
  return { port, socketUri: `mongodb://${encodeURIComponent(socketPath)}`, stop };
}

module.exports = { median, threads, cpuNanos, withNewThreads, startStub };
