'use strict';
/**
 * `find` by `_id` through the official driver: the embedded server against a stub that answers every command
 * `ok: 1` (stub-server.js), same driver, same concurrency, same run.
 *   node bench/embedded-mongo/find-by-id.js [--seconds 2] [--rounds 5] [--concurrency 1,8] [--docs 10000]
 * Run `npm run build -w @ccb/embedded-mongo` first. Both servers run on a worker thread of this process (the
 * embedded one as it always does, the stub in a worker of its own), so the client's event loop is the same for
 * both. Servers alternate within each round; the figure is the median ops/s of the rounds.
 */
const { join } = require('node:path');
const { parseArgs } = require('node:util');
const { Worker } = require('node:worker_threads');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../../packages/embedded-mongo/dist');

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '1,8' },
    docs: { type: 'string', default: '10000' },
  },
});
const DOCS = Number(values.docs);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function startStub() {
  const worker = new Worker(join(__dirname, 'stub-server.js'));
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    uri: `mongodb://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
    },
  };
}

async function seed(uri) {
  const client = await MongoClient.connect(uri);
  const docs = client.db('bench').collection('docs');
  for (let start = 0; start < DOCS; start += 5000) {
    const batch = Array.from({ length: Math.min(5000, DOCS - start) }, (_, i) => ({ _id: start + i, value: start + i, text: 'lorem ipsum' }));
    await docs.insertMany(batch, { ordered: false });
  }
  await client.close();
}

/** findOne by a random `_id` from `concurrency` loops for `seconds`; returns operations per second. */
async function findRate(client, concurrency, seconds) {
  const docs = client.db('bench').collection('docs');
  const end = performance.now() + seconds * 1000;
  let operations = 0;
  const loop = async () => {
    while (performance.now() < end) {
      await docs.findOne({ _id: Math.floor(Math.random() * DOCS) });
      operations++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return operations / ((performance.now() - start) / 1000);
}

async function main() {
  const embedded = await EmbeddedMongoServer.start({ port: 0 });
  const stub = await startStub();
  await seed(embedded.uri);
  const levels = values.concurrency.split(',').map(Number);
  const maxPool = Math.max(...levels);
  const clients = {
    embedded: await MongoClient.connect(embedded.uri, { maxPoolSize: maxPool }),
    stub: await MongoClient.connect(stub.uri, { maxPoolSize: maxPool }),
  };
  for (const client of Object.values(clients)) await findRate(client, maxPool, 1); // warm-up (JIT, pool)
  const rates = { embedded: {}, stub: {} };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const concurrency of levels) {
      for (const name of ['stub', 'embedded']) {
        (rates[name][concurrency] ??= []).push(await findRate(clients[name], concurrency, Number(values.seconds)));
      }
    }
  }
  console.log(`find by _id, ${DOCS} documents, median ops/s of ${values.rounds} rounds of ${values.seconds} s`);
  for (const concurrency of levels) {
    const [e, s] = [median(rates.embedded[concurrency]), median(rates.stub[concurrency])];
    console.log(`concurrency ${String(concurrency).padStart(2)}: embedded ${Math.round(e)}, stub ${Math.round(s)}, ratio ${(e / s).toFixed(2)}x`);
  }
  for (const client of Object.values(clients)) await client.close();
  await Promise.all([embedded.stop(), stub.stop()]);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
