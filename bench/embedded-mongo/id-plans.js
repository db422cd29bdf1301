'use strict';
/**
 * The server's own cost of a read by `_id` beside other conditions (no wire, no driver): CPU per read of the
 * package's `findMatches` (plan, then run) on a collection of 5,000 documents with 12 other indexes (as many as the
 * storefront index has), for the filter shapes of a stock adjustment, in this build and another one alternated.
 *   node bench/embedded-mongo/id-plans.js --compare DIST [--reads 20000] [--rounds 7]
 * DIST: another build's `dist` of @ccb/embedded-mongo (e.g. /work/wt/base/packages/embedded-mongo/dist). Run
 * `npm run build -w @ccb/embedded-mongo` first. Each round reads every shape `--reads` times per build, the builds in
 * turn (the first alternating between rounds); CPU from `process.cpuUsage()`. Prints per shape the medians of the
 * rounds and the median of the per-round ratios this build ÷ the other. `{_id} alone` (IDHACK, the same code in
 * both builds at the time of writing) shows how far two equal builds differ in one process.
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    compare: { type: 'string' },
    reads: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '7' },
  },
});
if (!values.compare) throw new Error('--compare DIST is required');
const DOCS = 5000;
const OTHER_INDEXES = 12;
const BUILDS = {
  'this build': path.join(__dirname, '..', '..', 'packages', 'embedded-mongo', 'dist'),
  compared: path.resolve(values.compare),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A collection of the build in memory, seeded, and its read. */
function seeded(dist) {
  const { Collection } = require(path.join(dist, 'storage', 'collection'));
  const { MemoryStore } = require(path.join(dist, 'storage', 'store'));
  const { findMatches } = require(path.join(dist, 'ops', 'match'));
  const collection = new Collection('bench', 'entries', {}, new MemoryStore());
  for (let i = 0; i < OTHER_INDEXES; i++) {
    collection.createIndex({ v: 2, key: { [`f${i}`]: 1, price: 1 }, name: `f${i}_1_price_1` });
  }
  for (let i = 0; i < DOCS; i++) {
    const doc = { _id: `p${i}`, version: i % 7, price: i % 100, quantity: 3 };
    for (let f = 0; f < OTHER_INDEXES; f++) doc[`f${f}`] = (i * (f + 1)) % 50;
    collection.insert(doc);
  }
  return (filter, options) => findMatches(collection, filter, {}, options);
}

/** Filter and options for document i; each finds at least one document. */
const SHAPES = {
  '{_id, version}': (i) => [{ _id: `p${i}`, version: i % 7 }, { limit: 1 }],
  '{_id, quantity, price}': (i) => [{ _id: `p${i}`, quantity: 3, price: i % 100 }, { limit: 1 }],
  '{_id: {$in: [3 ids]}}': (i) => [{ _id: { $in: [`p${i + 2}`, `p${i}`, `p${i + 1}`] } }, {}],
  '{_id} alone': (i) => [{ _id: `p${i}` }, {}],
};

/** µs of CPU per read. */
function measure(read, shape, reads) {
  const start = process.cpuUsage();
  for (let n = 0; n < reads; n++) {
    const [filter, options] = shape((n * 7919) % (DOCS - 2));
    if (read(filter, options).length === 0) throw new Error(`nothing found for ${JSON.stringify(filter)}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / reads;
}

function main() {
  const reads = Object.fromEntries(Object.entries(BUILDS).map(([name, dist]) => [name, seeded(dist)]));
  const names = Object.keys(BUILDS);
  const results = {};
  for (const shape of Object.values(SHAPES)) for (const name of names) measure(reads[name], shape, 2000); // warm-up
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 ? [...names].reverse() : names;
    for (const [label, shape] of Object.entries(SHAPES)) {
      for (const name of order)
        ((results[label] ??= {})[name] ??= []).push(measure(reads[name], shape, Number(values.reads)));
    }
  }
  console.log(`medians of ${values.rounds} rounds of ${values.reads} reads, µs of CPU per read`);
  for (const [label, byBuild] of Object.entries(results)) {
    const ratios = byBuild['this build'].map((ours, i) => ours / byBuild.compared[i]);
    const cells = names.map((name) => `${name} ${median(byBuild[name]).toFixed(1).padStart(6)}`).join('   ');
    console.log(`${label.padEnd(24)} ${cells}   ratio ${median(ratios).toFixed(2)}x`);
  }
}

main();
