'use strict';
/**
 * Time to open a stored database (every document read back, every index rebuilt in memory: what an app's start-up
 * waits for), for one or more builds, alternated:
 *   node bench/embedded-mongo/open-store.js DATA_DIR ROUNDS BUILD_DIR...
 * DATA_DIR is a data directory as the app keeps it (the store in `DATA_DIR/db`), copied to a scratch directory for
 * each open. Prints the wall time and the process's CPU time (all threads) from `start()` until the server listens.
 */
const { cpSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [data, rounds, ...builds] = process.argv.slice(2);

async function openOnce(build) {
  const { EmbeddedMongoServer } = require(path.join(path.resolve(build), 'packages/embedded-mongo/dist'));
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'open-store-'));
  cpSync(path.join(data, 'db'), scratch, { recursive: true });
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const server = await EmbeddedMongoServer.start({ dbPath: scratch, port: 0 });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const { user, system } = process.cpuUsage(cpu);
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
  return `open ${wall.toFixed(2)} s wall, ${((user + system) / 1e6).toFixed(2)} s CPU`;
}

async function main() {
  for (let round = 0; round < Number(rounds); round++) {
    for (const build of builds) process.stdout.write(`round ${round + 1} ${build}: ${await openOnce(build)}\n`);
  }
}

void main();
