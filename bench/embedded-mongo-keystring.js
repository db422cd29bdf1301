'use strict';
/**
 * CPU cost of `keyString`, the canonical key of every index entry and stored document, on two builds of the package
 * in one process, alternated round by round.
 *   node bench/embedded-mongo-keystring.js --before DIST [--rounds 7]
 * `DIST` is another build's `packages/embedded-mongo/dist` (e.g. /work/wt/base/...); the other is this checkout's.
 * Keys are the storefront's kinds (int, double, string, ObjectId, date, a two-field compound) and, in a column of
 * their own, BinData; a fixed seed makes them the same for both builds. Prints CPU ns per key (user + system, from
 * `process.cpuUsage`, which reads the kernel's accounting like /proc) per round and the median of the rounds.
 */
const { parseArgs } = require('node:util');
const path = require('node:path');
const { Binary, ObjectId } = require('bson');

const { values } = parseArgs({ options: { before: { type: 'string' }, rounds: { type: 'string', default: '7' } } });
if (!values.before) throw new Error('--before DIST is required');
const ROUNDS = Number(values.rounds);
const KEYS = 200_000;
const REPEAT = 10;

const builds = {
  before: require(path.join(path.resolve(values.before), 'indexes/key-string')).keyString,
  after: require('../packages/embedded-mongo/dist/indexes/key-string').keyString,
};

/** Park–Miller, fixed seed. */
let seed = 42;
const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;

function commonKey(n) {
  switch (n % 6) {
    case 0:
      return [Math.floor(random() * 1e6)];
    case 1:
      return [random() * 1000];
    case 2:
      return [`sku-${Math.floor(random() * 1e6)}`];
    case 3:
      return [ObjectId.createFromTime(Math.floor(random() * 2 ** 31))];
    case 4:
      return [new Date(Math.floor(random() * 2e12))];
    default:
      return [Math.floor(random() * 100), random() * 1000];
  }
}
const binaryKey = () => [new Binary(Buffer.from(Array.from({ length: 16 }, () => Math.floor(random() * 256))))];

const sets = {
  common: Array.from({ length: KEYS }, (_, n) => commonKey(n)),
  binary: Array.from({ length: KEYS / 4 }, binaryKey),
};

function cpuNsPerKey(keyString, keys) {
  const start = process.cpuUsage();
  let length = 0;
  for (let r = 0; r < REPEAT; r++) for (const key of keys) length += keyString(key).length;
  const used = process.cpuUsage(start);
  if (length === 0) throw new Error('no keys');
  return ((used.user + used.system) * 1000) / (REPEAT * keys.length);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { before: { common: [], binary: [] }, after: { common: [], binary: [] } };
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which build goes first, so drift in the machine's load falls on both.
  const order = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  for (const build of order) {
    for (const set of Object.keys(sets)) results[build][set].push(cpuNsPerKey(builds[build], sets[set]));
  }
  const line = (build) =>
    `${build} common ${results[build].common.at(-1).toFixed(0)} binary ${results[build].binary.at(-1).toFixed(0)}`;
  console.log(`round ${round + 1}: ${line('before')} | ${line('after')} (ns CPU per key)`);
}
for (const set of Object.keys(sets)) {
  const before = median(results.before[set]);
  const after = median(results.after[set]);
  // The ratio of each round (both builds measured back to back) is less exposed to the load's drift.
  const paired = median(results.after[set].map((ns, round) => ns / results.before[set][round]));
  console.log(
    `${set}: before ${before.toFixed(0)} ns, after ${after.toFixed(0)} ns, ratio of medians ` +
      `${(after / before).toFixed(2)}, median of round ratios ${paired.toFixed(2)}`,
  );
}
