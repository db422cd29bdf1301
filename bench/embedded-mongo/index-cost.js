'use strict';
/**
 * CPU per operation of the embedded database's in-memory `Index`, for one or more builds in the same process:
 *   node --expose-gc bench/embedded-mongo/index-cost.js [--rounds 3] [DIR ...]
 * Each DIR is a checkout whose `packages/embedded-mongo` is built (default: this one). The builds alternate within
 * each round. Documents look like storefront entries: 30 search words each (a multikey string field) beside a
 * price, in a non-unique compound index; plus a unique index on a scalar. Figures are CPU microseconds per
 * document added, per full-key look-up, per uniqueness check and per document removed, and per entry read by scans
 * of one search word each, forward and backward (the median of the rounds).
 */
const path = require('node:path');
const { parseArgs } = require('node:util');
const { xorshift } = require('./xorshift');

const { values, positionals } = parseArgs({
  options: { rounds: { type: 'string', default: '3' } },
  allowPositionals: true,
});
const builds = (positionals.length ? positionals : [path.join(__dirname, '../..')]).map((dir) => path.resolve(dir));
const DOCS = 4_000;
const WORDS = 30;

function documents() {
  const random = xorshift(23);
  return Array.from({ length: DOCS }, (_, i) => ({
    _id: `entry-${i}`,
    sku: `sku-${i}`,
    terms: Array.from({ length: WORDS }, () => `w${Math.floor(random() * 5000)}`),
    price: Math.floor(random() * 10_000) / 100,
  }));
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

function timed(count, work) {
  global.gc();
  const start = cpuMicros();
  work();
  return (cpuMicros() - start) / count;
}

/** The range of one search word in the search index (every price). */
const wordRange = (word) => ({
  prefix: [],
  interval: { low: word, high: word, lowInclusive: true, highInclusive: true },
});
const WORD_RANGES = Array.from({ length: 5000 }, (_, i) => wordRange(`w${i}`));

/** CPU per entry of reading every entry of the index, a search word at a time. */
function scanned(index, forward) {
  let entries = 0;
  const total = timed(1, () => {
    for (const range of WORD_RANGES) for (const _entry of index.entriesIn(range, forward)) entries++;
  });
  return total / entries;
}

function measure(Index, docs) {
  const search = new Index({ v: 2, name: 'search', key: { terms: 1, price: 1 } });
  const unique = new Index({ v: 2, name: 'sku', key: { sku: 1 }, unique: true });
  const add = timed(docs.length, () => {
    for (const doc of docs) {
      search.add(doc, doc._id);
      unique.add(doc, doc._id);
    }
  });
  const lookup = timed(docs.length, () => {
    for (const doc of docs) search.lookup([doc.terms[0], doc.price]);
  });
  const scan = scanned(search, true);
  const scanBack = scanned(search, false);
  const check = timed(docs.length, () => {
    for (const doc of docs) unique.checkUnique(doc, doc._id, 'bench.entries');
  });
  const remove = timed(docs.length, () => {
    for (const doc of docs) {
      search.remove(doc, doc._id);
      unique.remove(doc, doc._id);
    }
  });
  return { add, lookup, scan, scanBack, check, remove };
}

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
const docs = documents();
const indexes = builds.map((dir) => require(path.join(dir, 'packages/embedded-mongo/dist/indexes/index')).Index);
const results = builds.map(() => []);
for (let round = 0; round < Number(values.rounds); round++) {
  indexes.forEach((Index, i) => results[i].push(measure(Index, docs)));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [i, dir] of builds.entries()) {
  const figures = ['add', 'lookup', 'scan', 'scanBack', 'check', 'remove'].map(
    (op) => `${op} ${median(results[i].map((r) => r[op])).toFixed(2)} µs`,
  );
  process.stdout.write(`${dir}: ${figures.join(', ')} (CPU per document; scans per entry)\n`);
}
