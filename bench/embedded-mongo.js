'use strict';
/**
 * Benchmark of the embedded MongoDB-compatible server with the official driver.
 *   node bench/embedded-mongo.js [--dbpath DIR] [--runs 5]
 * Builds nothing: run `npm run build -w @ccb/embedded-mongo` first. In-memory unless --dbpath is given
 * (then every acknowledged write is fsynced). Each operation runs sequentially (one client, awaiting
 * each reply); the figure is the median ops/s over the runs.
 */
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../packages/embedded-mongo/dist');

const DOCS = 100_000;
const { values } = parseArgs({ options: { dbpath: { type: 'string' }, runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);

const random = (n) => Math.floor(Math.random() * n);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(ops, op) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) await op(i);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    rates.push(ops / seconds);
  }
  return Math.round(median(rates));
}

async function seed(collection) {
  for (let start = 0; start < DOCS; start += 5000) {
    const batch = Array.from({ length: 5000 }, (_, i) => ({
      _id: start + i,
      indexed: start + i,
      plain: start + i,
      counter: 0,
      text: 'lorem ipsum',
    }));
    await collection.insertMany(batch, { ordered: false });
  }
  await collection.createIndex({ indexed: 1 });
}

async function main() {
  const server = await EmbeddedMongoServer.start({ port: 0, dbPath: values.dbpath });
  const client = await MongoClient.connect(server.uri);
  const db = client.db('bench');
  await db.dropDatabase();
  const docs = db.collection('docs');
  await seed(docs);
  const inserts = db.collection('inserts');
  let nextId = 0;
  const results = {
    insertOne: await measure(2000, () => inserts.insertOne({ _id: nextId++, value: 'x'.repeat(100) })),
    'find by _id': await measure(5000, () => docs.findOne({ _id: random(DOCS) })),
    'indexed equality find (100k docs)': await measure(5000, () => docs.findOne({ indexed: random(DOCS) })),
    'unindexed find (100k docs)': await measure(10, () => docs.findOne({ plain: random(DOCS) })),
    'updateOne $inc by _id': await measure(2000, () => docs.updateOne({ _id: random(DOCS) }, { $inc: { counter: 1 } })),
  };
  console.log(`mode: ${values.dbpath ? `lmdb (${values.dbpath})` : 'in-memory'}, runs: ${RUNS}, median ops/s`);
  for (const [name, rate] of Object.entries(results)) console.log(`${name.padEnd(36)} ${String(rate).padStart(8)}`);
  await client.close();
  await server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
