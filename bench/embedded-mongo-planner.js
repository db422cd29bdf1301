'use strict';
/**
 * Query planner benchmark: planned queries against the same queries forced to a collection scan
 * (`hint: {$natural: 1}`) in the same run, on 100 000 documents, official driver, one client.
 *   node bench/embedded-mongo-planner.js [--runs 3]
 * Run `npm run build -w @ccb/embedded-mongo` first. Prints median ops/s of the runs and the ratio.
 */
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../packages/embedded-mongo/dist');

const DOCS = 100_000;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);

const random = (n) => Math.floor(Math.random() * n);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(ops, op) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ops; i++) await op(i);
    rates.push(ops / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  return median(rates);
}

async function seed(collection) {
  for (let start = 0; start < DOCS; start += 5000) {
    const batch = Array.from({ length: 5000 }, (_, i) => {
      const n = start + i;
      return { _id: n, category: n % 100, price: n, sku: `sku-${String(n).padStart(6, '0')}`, brand: `b${n % 1000}` };
    });
    await collection.insertMany(batch, { ordered: false });
  }
  await collection.createIndex({ category: 1, price: 1 });
  await collection.createIndex({ price: 1 });
  await collection.createIndex({ sku: 1 });
  await collection.createIndex({ brand: 1 });
}

/** Each case: a planned query and the same query as a collection scan, as a function of a random seed. */
function cases(docs, db) {
  const count = (query, extra = {}) => db.command({ count: 'docs', query, ...extra });
  return {
    'sorted + limited find (equality, sort on next field, limit 10)': (hint) =>
      docs.find({ category: random(100) }, { sort: { price: -1 }, limit: 10, ...hint }).toArray(),
    'sorted + limited find (no filter, sort by indexed field, skip 20, limit 10)': (hint) =>
      docs.find({}, { sort: { price: 1 }, skip: 20, limit: 10, ...hint }).toArray(),
    'compound equality + range find (10 results)': (hint) => {
      const low = random(DOCS - 1000);
      return docs.find({ category: low % 100, price: { $gte: low, $lt: low + 1000 } }, hint).toArray();
    },
    '$or find (two indexed branches)': (hint) =>
      docs.find({ $or: [{ sku: `sku-${String(random(DOCS)).padStart(6, '0')}` }, { brand: `b${random(1000)}` }] }, hint).toArray(),
    'count with a filter (equality + range, 500 matches)': (hint) => {
      const category = random(100);
      return count({ category, price: { $gte: 50_000 } }, hint);
    },
  };
}

async function main() {
  const server = await EmbeddedMongoServer.start({ port: 0 });
  const client = await MongoClient.connect(server.uri);
  const db = client.db('bench_planner');
  await db.dropDatabase();
  const docs = db.collection('docs');
  await seed(docs);
  console.log(`${DOCS} documents, runs: ${RUNS}, median ops/s`);
  console.log(`${'query'.padEnd(78)} ${'planned'.padStart(9)} ${'COLLSCAN'.padStart(9)} ${'ratio'.padStart(7)}`);
  for (const [name, run] of Object.entries(cases(docs, db))) {
    const planned = await measure(500, () => run({}));
    const scanned = await measure(5, () => run({ hint: { $natural: 1 } }));
    const row = [name.padEnd(78), planned.toFixed(0).padStart(9), scanned.toFixed(1).padStart(9), `${(planned / scanned).toFixed(0)}×`.padStart(7)];
    console.log(row.join(' '));
  }
  await client.close();
  await server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
