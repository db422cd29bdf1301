'use strict';
/**
 * The database thread's cost of a storefront listing page, per command, for builds of the package side by side.
 *   node bench/embedded-mongo/listing-page.js --store DIR [--rounds 5] [--seconds 2] [--only a|b] DIST...
 * `--store`: the embedded database's directory of a seeded app (e.g. a copy of `DATA_DIR/db` after
 * `npm run seed -- --scale 100`); its `storefront_index` and `storefront_facets` (documents and indexes) are read once
 * through the first DIST's server, then copied into one in-memory server per DIST (`dist/` of @ccb/embedded-mongo,
 * e.g. this worktree's and main's), each on a worker thread of this process over its Unix domain socket. Commands,
 * one client awaiting each reply:
 *   countedPage  the listing's aggregate (`StorefrontReader.countedPage`): $match scope/listed, $sort name/_id,
 *                $limit 20, $project of the listing fields, $unionWith of the two counters by `_id: {$in}`;
 *   page2        the same with $skip 20;
 *   findPage     the page alone as a find;
 *   counters     the counters alone: find({_id: {$in}}) on storefront_facets;
 *   priceCount   a price range's total (`StorefrontReader.count`): the `count` command of the entries having one of
 *                the price keys of [500, 2000] in EUR (`listing_price_keys`, keys only).
 * Servers alternate within each round, each round starting at another; figures are medians of the rounds of the CPU
 * time per command of the server's threads (/proc schedstat), with the ratio of the second DIST to the first.
 */
const { readFileSync } = require('node:fs');
const { MongoClient } = require('mongodb');
const { median, cpuNanos, withNewThreads } = require('./thread-cpu');

const args = process.argv.slice(2);
function option(name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
}
const rounds = Number(option('--rounds', '5'));
const seconds = Number(option('--seconds', '2'));
const only = option('--only', '');
const store = option('--store', '');
const dists = args;
if (!store || dists.length === 0) throw new Error('usage: listing-page.js --store DIR [options] DIST...');

const DB = 'content-commerce';
const LISTING = {
  ...{ product: 1, slug: 1, name: 1, description: 1, images: 1, translations: 1, attributes: 1 },
  ...{ attributeLabels: 1, cheapest: 1 },
};
const COUNTERS = { _id: { $in: ['listed|*', 'revision|attributes'] } };
const head = [{ $match: { scope: '*', listed: true } }, { $sort: { name: 1, _id: 1 } }];
const tail = [
  { $limit: 20 },
  { $project: LISTING },
  { $unionWith: { coll: 'storefront_facets', pipeline: [{ $match: COUNTERS }] } },
];
/** `priceKeysWithin('EUR', 500, 2000)` (src/services/catalogue/price-keys.ts). */
const PRICE_POINTS = ['EUR|2:5', 'EUR|2:6', 'EUR|2:7', 'EUR|2:8', 'EUR|2:9', 'EUR|3:1', 'EUR|2000'];
const CALLS = {
  countedPage: (db) =>
    db
      .collection('storefront_index')
      .aggregate([...head, ...tail])
      .toArray(),
  page2: (db) =>
    db
      .collection('storefront_index')
      .aggregate([...head, { $skip: 20 }, ...tail])
      .toArray(),
  findPage: (db) =>
    db
      .collection('storefront_index')
      .find({ scope: '*', listed: true }, { projection: LISTING })
      .sort({ name: 1, _id: 1 })
      .limit(20)
      .toArray(),
  counters: (db) => db.collection('storefront_facets').find(COUNTERS).toArray(),
  priceCount: (db) => db.command({ count: 'storefront_index', query: { priceKeys: { $in: PRICE_POINTS } } }),
};

/** The two collections' documents (as the driver decodes them, number types kept) and index specs. */
async function readCollections(dist) {
  const { EmbeddedMongoServer } = require(dist);
  const server = await EmbeddedMongoServer.start({ dbPath: store });
  const client = await MongoClient.connect(server.uri, { promoteValues: false });
  const db = client.db(DB);
  const read = async (name) => ({
    name,
    docs: await db.collection(name).find({}).toArray(),
    indexes: (await db.collection(name).indexes()).filter((index) => index.name !== '_id_'),
  });
  const collections = [await read('storefront_index'), await read('storefront_facets')];
  await client.close();
  await server.stop();
  return collections;
}

async function startServer(dist, collections) {
  const { EmbeddedMongoServer } = require(dist);
  const started = await withNewThreads(async () => ({ server: await EmbeddedMongoServer.start({ unixSocket: true }) }));
  // A busy machine may hold a batch of inserts longer than the driver's default monitor timeout.
  const client = await MongoClient.connect(started.server.socketUri, { connectTimeoutMS: 300_000 });
  const db = client.db(DB);
  for (const { name, docs, indexes } of collections) {
    if (indexes.length)
      await db.collection(name).createIndexes(indexes.map(({ key, name: index }) => ({ key, name: index })));
    for (let at = 0; at < docs.length; at += 200) await db.collection(name).insertMany(docs.slice(at, at + 200));
  }
  return { dist, ...started, client, db };
}

async function main() {
  const collections = await readCollections(dists[0]);
  const servers = [];
  for (const dist of dists) servers.push(await startServer(dist, collections));
  const names = Object.keys(CALLS).filter((name) => !only || only.split('|').includes(name));
  const results = {};
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      for (let k = 0; k < servers.length; k++) {
        const server = servers[(k + round) % servers.length];
        const call = CALLS[name];
        for (let i = 0; i < 200; i++) await call(server.db);
        const before = cpuNanos(server.threads);
        const started = Date.now();
        let calls = 0;
        for (; Date.now() - started < seconds * 1000; calls++) await call(server.db);
        ((results[name] ??= {})[server.dist] ??= []).push((cpuNanos(server.threads) - before) / calls / 1000);
      }
    }
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load ${load}; server CPU µs per command, median of ${rounds} rounds`);
  for (const name of names) {
    const figures = dists.map((dist) => median(results[name][dist]));
    const ratio = figures.length > 1 ? `  ratio ${(figures[1] / figures[0]).toFixed(2)}` : '';
    console.log(`${name.padEnd(12)} ${figures.map((us) => us.toFixed(0).padStart(6)).join(' ')}${ratio}`);
  }
  for (const server of servers) {
    await server.client.close();
    await server.server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
