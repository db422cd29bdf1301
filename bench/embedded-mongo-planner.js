'use strict';
/**
 * Query planner benchmark: planned queries against the same queries forced to a collection scan
 * (`hint: {$natural: 1}`) in the same run, on 100 000 documents, official driver, one client.
 *   node bench/embedded-mongo-planner.js [--runs 3] [--before DIST]
 * Run `npm run build -w @ccb/embedded-mongo` first. Prints median ops/s of the runs and the ratio.
 * `--before DIST`: also runs the planned queries on another build of the package (its `dist` directory,
 * e.g. built from an older commit) in the same run, as a "before" column.
 */
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../packages/embedded-mongo/dist');

const DOCS = 100_000;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, before: { type: 'string' } } });
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
    'sorted + limited find ($in of 3 categories, sort on next field, limit 10)': (hint) => {
      const category = { $in: [random(100), random(100), random(100)] };
      return docs.find({ category }, { sort: { price: -1 }, limit: 10, ...hint }).toArray();
    },
    'sorted + limited find (no filter, indexed sort, skip 20, limit 10)': (hint) =>
      docs.find({}, { sort: { price: 1 }, skip: 20, limit: 10, ...hint }).toArray(),
    'compound equality + range find (10 results)': (hint) => {
      const low = random(DOCS - 1000);
      return docs.find({ category: low % 100, price: { $gte: low, $lt: low + 1000 } }, hint).toArray();
    },
    '$or find (two indexed branches)': (hint) => {
      const sku = `sku-${String(random(DOCS)).padStart(6, '0')}`;
      return docs.find({ $or: [{ sku }, { brand: `b${random(1000)}` }] }, hint).toArray();
    },
    'count with a filter (equality + range, 500 matches)': (hint) => {
      const category = random(100);
      return count({ category, price: { $gte: 50_000 } }, hint);
    },
  };
}

/** A seeded server of the given build, with its query cases. */
async function open(Server) {
  const server = await Server.start({ port: 0 });
  const client = await MongoClient.connect(server.uri);
  const db = client.db('bench_planner');
  await db.dropDatabase();
  const docs = db.collection('docs');
  await seed(docs);
  const close = async () => {
    await client.close();
    await server.stop();
  };
  return { cases: cases(docs, db), close };
}

async function main() {
  const current = await open(EmbeddedMongoServer);
  const before = values.before ? await open(require(values.before).EmbeddedMongoServer) : undefined;
  console.log(`${DOCS} documents, runs: ${RUNS}, median ops/s`);
  const head = ['query'.padEnd(74), 'planned', 'COLLSCAN', 'ratio', ...(before ? ['before', 'ratio'] : [])];
  console.log(head.map((cell, i) => (i ? cell.padStart(9) : cell)).join(' '));
  for (const [name, run] of Object.entries(current.cases)) {
    const planned = await measure(500, () => run({}));
    const scanned = await measure(5, () => run({ hint: { $natural: 1 } }));
    const row = [name.padEnd(74), planned.toFixed(0), scanned.toFixed(1), `${(planned / scanned).toFixed(0)}×`];
    if (before) {
      const old = await measure(50, () => before.cases[name]({}));
      row.push(old.toFixed(0), `${(planned / old).toFixed(1)}×`);
    }
    console.log(row.map((cell, i) => (i ? cell.padStart(9) : cell)).join(' '));
  }
  await current.close();
  await before?.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
