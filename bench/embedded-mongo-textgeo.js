'use strict';
/**
 * Text and geo search of the embedded server through their indexes, against the same questions answered by a
 * full scan, measured in the same run (the machine is shared and noisy: compare the ratios, not the rates).
 *   node bench/embedded-mongo-textgeo.js [--docs 50000] [--runs 5]
 * Builds nothing: run `npm run build -w @ccb/embedded-mongo` first. In-memory server, one client, sequential
 * requests; each figure is the median requests/s over the runs.
 */
const { parseArgs } = require('node:util');
const { MongoClient } = require('mongodb');
const { EmbeddedMongoServer } = require('../packages/embedded-mongo/dist');

const { values } = parseArgs({
  options: { docs: { type: 'string', default: '50000' }, runs: { type: 'string', default: '5' } },
});
const DOCS = Number(values.docs);
const RUNS = Number(values.runs);
const QUERIES = 50;
const VOCABULARY = 2000;
const WORDS_PER_TITLE = 8;

/** A seeded generator, so every run searches the same catalogue. */
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(12);
const word = (n) => `item${n}`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(op) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < QUERIES; i++) await op(i);
    rates.push(QUERIES / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  return median(rates);
}

/**
 * Offers spread over Germany (lng 6–15, lat 47–55), titled with words of a small vocabulary, into two
 * collections: one with a text and a 2dsphere index, one without (the full-scan baseline).
 */
async function seed(indexed, plain) {
  for (let start = 0; start < DOCS; start += 5000) {
    const batch = Array.from({ length: Math.min(5000, DOCS - start) }, (_, i) => ({
      _id: start + i,
      title: Array.from({ length: WORDS_PER_TITLE }, () => word(Math.floor(random() * VOCABULARY))).join(' '),
      loc: { type: 'Point', coordinates: [6 + random() * 9, 47 + random() * 8] },
    }));
    await indexed.insertMany(batch, { ordered: false });
    await plain.insertMany(batch, { ordered: false });
  }
  await indexed.createIndex({ title: 'text' });
  await indexed.createIndex({ loc: '2dsphere' });
}

async function main() {
  const server = await EmbeddedMongoServer.start({ port: 0 });
  const client = await MongoClient.connect(server.uri);
  const offers = client.db('bench').collection('offers');
  const plain = client.db('bench').collection('offers_unindexed');
  await seed(offers, plain);
  const term = (i) => word((i * 37) % VOCABULARY);
  const center = (i) => [7 + (i % 7), 48 + (i % 6)];
  const radiusMeters = 5000;
  const byScore = { score: { $meta: 'textScore' } };
  const results = {
    'find by _id (reference)': await measure((i) => offers.findOne({ _id: (i * 7919) % DOCS })),
    '$text one word, top 20 by score': await measure((i) =>
      offers
        .find({ $text: { $search: term(i) } }, { projection: byScore })
        .sort(byScore)
        .limit(20)
        .toArray(),
    ),
    'same word by $regex (full scan), 20': await measure((i) =>
      plain
        .find({ title: { $regex: `\\b${term(i)}\\b` } })
        .limit(20)
        .toArray(),
    ),
    '$near 5 km, nearest 20': await measure((i) =>
      offers
        .find({ loc: { $near: { $geometry: { type: 'Point', coordinates: center(i) }, $maxDistance: radiusMeters } } })
        .limit(20)
        .toArray(),
    ),
    '$geoWithin $centerSphere 5 km': await measure((i) =>
      offers.find({ loc: { $geoWithin: { $centerSphere: [center(i), radiusMeters / 6378100] } } }).toArray(),
    ),
    '$geoWithin $centerSphere 5 km (full scan)': await measure((i) =>
      plain.find({ loc: { $geoWithin: { $centerSphere: [center(i), radiusMeters / 6378100] } } }).toArray(),
    ),
  };
  await client.close();
  await server.stop();
  console.log(`${DOCS} documents, median of ${RUNS} runs of ${QUERIES} sequential queries`);
  for (const [name, rate] of Object.entries(results))
    console.log(`${name.padEnd(44)} ${rate.toFixed(0).padStart(8)} /s`);
  const ratio = (a, b) => (results[a] / results[b]).toFixed(1);
  console.log(
    `$text vs $regex scan: ${ratio('$text one word, top 20 by score', 'same word by $regex (full scan), 20')}x`,
  );
  const scan = '$geoWithin $centerSphere 5 km (full scan)';
  console.log(`$near vs $geoWithin scan: ${ratio('$near 5 km, nearest 20', scan)}x`);
  console.log(`$geoWithin indexed vs scan: ${ratio('$geoWithin $centerSphere 5 km', scan)}x`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
