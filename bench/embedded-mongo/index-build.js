'use strict';
/**
 * CPU of building one large index over existing documents (what opening a store does for every index), for one or
 * more builds in the same process, alternated:
 *   node --expose-gc --max-old-space-size=8000 bench/embedded-mongo/index-build.js [--docs 20000] [--rounds 2] [DIR ...]
 * Each DIR is a checkout whose `packages/embedded-mongo` is built (default: this one). Documents look like storefront
 * entries (95 search words each out of 5,000, a price) in a compound multikey index like the storefront's `search_*`
 * ones: 20,000 documents give about 1.9 million keys, a 1000x catalogue's search index about 13 million.
 */
const path = require('node:path');
const { parseArgs } = require('node:util');
const { xorshift } = require('./xorshift');

const { values, positionals } = parseArgs({
  options: { docs: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '2' } },
  allowPositionals: true,
});
const builds = (positionals.length ? positionals : [path.join(__dirname, '../..')]).map((dir) => path.resolve(dir));

function documents(count) {
  const random = xorshift(23);
  return Array.from({ length: count }, (_, i) => {
    const id = `p${String(i).padStart(6, '0')}`;
    const searchKeys = Array.from({ length: 95 }, () => `w${Math.floor(random() * 5000)}`);
    return [id, { _id: id, scope: 'all', listed: true, searchKeys, price: Math.floor(random() * 10_000) }];
  });
}

if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
const docs = documents(Number(values.docs));
const spec = { v: 2, name: 'search', key: { scope: 1, listed: 1, searchKeys: 1, price: 1, _id: 1 } };
const indexes = builds.map((dir) => require(path.join(dir, 'packages/embedded-mongo/dist/indexes/index')).Index);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [i, Index] of indexes.entries()) {
    global.gc();
    const start = process.cpuUsage();
    const index = new Index(spec);
    index.build(docs, 'bench.entries');
    const { user, system } = process.cpuUsage(start);
    const micros = user + system;
    const perKey = (micros / index.size).toFixed(2);
    process.stdout.write(
      `round ${round + 1} ${builds[i]}: ${index.size} keys, ${(micros / 1e6).toFixed(1)} s CPU (${perKey} µs a key)\n`,
    );
  }
}
