'use strict';
/**
 * `$lookup` cost per aggregate against the size of the foreign collection.
 *   node bench/embedded-mongo-lookup.js [--runs 5] [--local 20]
 * Builds nothing: run `npm run build -w @ccb/embedded-mongo` first. In-memory server, official driver,
 * one client, sequential aggregates. For 1k / 10k / 50k foreign documents, each aggregate reads the
 * same `--local` documents and joins each one to one foreign document:
 *   - `$match` only: the baseline (no join);
 *   - `$lookup` on `_id` (the `_id` index), on an indexed field, on an unindexed field (one hash of the
 *     foreign collection per aggregate), and `let`/`pipeline` joins whose `$match` is an `$expr`
 *     equality on the foreign field (looked up the same way), on an indexed and an unindexed field.
 * Reports the median milliseconds per aggregate over the runs and the ratio to the baseline.
 */
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../packages/embedded-mongo/dist');

const SIZES = [1_000, 10_000, 50_000];
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, local: { type: 'string', default: '20' } },
});
const RUNS = Number(values.runs);
const LOCAL = Number(values.local);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median milliseconds per call over RUNS runs of `calls` sequential calls (after one warm-up call). */
async function msPerCall(calls, op) {
  await op();
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await op();
    times.push(Number(process.hrtime.bigint() - start) / 1e6 / calls);
  }
  return median(times);
}

async function seedForeign(db, name, size, indexed) {
  const collection = db.collection(name);
  for (let start = 0; start < size; start += 5000) {
    const length = Math.min(5000, size - start);
    const batch = Array.from({ length }, (_, i) => ({ _id: start + i, sku: `sku-${start + i}`, price: i % 100 }));
    await collection.insertMany(batch, { ordered: false });
  }
  if (indexed) await collection.createIndex({ sku: 1 });
}

async function seedLocal(db, size) {
  const step = Math.floor(size / LOCAL);
  const docs = Array.from({ length: LOCAL }, (_, i) => ({ _id: i, group: 1, ref: i * step, sku: `sku-${i * step}` }));
  await db.collection(`local_${size}`).insertMany(docs);
}

function cases(size) {
  const lookup = (from, localField, foreignField) => [
    { $match: { group: 1 } },
    { $lookup: { from, localField, foreignField, as: 'joined' } },
  ];
  const correlated = (from) => [
    { $match: { group: 1 } },
    {
      $lookup: {
        from,
        let: { sku: '$sku' },
        pipeline: [{ $match: { $expr: { $eq: ['$sku', '$$sku'] } } }],
        as: 'joined',
      },
    },
  ];
  return {
    '$match only (baseline)': [{ $match: { group: 1 } }],
    '$lookup on _id': lookup(`plain_${size}`, 'ref', '_id'),
    '$lookup on an indexed field': lookup(`indexed_${size}`, 'sku', 'sku'),
    '$lookup on an unindexed field (hash)': lookup(`plain_${size}`, 'sku', 'sku'),
    '$lookup let/pipeline $expr, indexed': correlated(`indexed_${size}`),
    '$lookup let/pipeline $expr, unindexed': correlated(`plain_${size}`),
  };
}

async function main() {
  const server = await EmbeddedMongoServer.start({ port: 0 });
  const client = await MongoClient.connect(server.uri);
  const db = client.db('bench_lookup');
  await db.dropDatabase();
  const rows = [];
  for (const size of SIZES) {
    await seedForeign(db, `plain_${size}`, size, false);
    await seedForeign(db, `indexed_${size}`, size, true);
    await seedLocal(db, size);
    const local = db.collection(`local_${size}`);
    const measured = {};
    // Warm-up: the first size's figures would otherwise include the JIT compiling every path.
    for (const pipeline of Object.values(cases(size))) {
      for (let i = 0; i < 50; i++) await local.aggregate(pipeline).toArray();
    }
    for (const [name, pipeline] of Object.entries(cases(size))) {
      const check = await local.aggregate(pipeline).toArray();
      const joinedOne = name === '$match only (baseline)' || check.every((doc) => doc.joined.length === 1);
      if (check.length !== LOCAL || !joinedOne) throw new Error(`${name}: wrong result`);
      measured[name] = await msPerCall(30, () => local.aggregate(pipeline).toArray());
    }
    const baseline = measured['$match only (baseline)'];
    for (const [name, ms] of Object.entries(measured)) rows.push([size, name, ms, ms / baseline]);
  }
  console.log(`runs: ${RUNS}, ${LOCAL} local documents per aggregate, median ms per aggregate`);
  console.log(`${'foreign docs'.padEnd(13)} ${'pipeline'.padEnd(40)} ${'ms'.padStart(9)} ${'× $match'.padStart(9)}`);
  for (const [size, name, ms, ratio] of rows) {
    const figures = `${ms.toFixed(2).padStart(9)} ${ratio.toFixed(1).padStart(9)}`;
    console.log(`${String(size).padEnd(13)} ${name.padEnd(40)} ${figures}`);
  }
  await client.close();
  await server.stop();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
