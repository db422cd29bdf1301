'use strict';
/**
 * Encoding one `find` reply of 20 stored documents: this build (stored documents copied from their kept bytes,
 * src/wire/reply-bson.ts) against another build's encoder (`--compare DIST`, e.g. main's package `dist/`), in one
 * process, alternating rounds; small documents (6 fields, ~90 bytes) and product-sized ones (texts, 8 offers,
 * 10 attributes, ~1.7 KB). Then the product-sized page projected to 4 top-level fields, as a find does it: each
 * build's projection, its cursor's first batch (sized) and its encoder. Checks first that both builds produce the
 * same bytes.
 *   node bench/embedded-mongo/reply-encoding.js --compare DIST [--rounds 7] [--replies 5000]
 */
const path = require('node:path');
const { parseArgs } = require('node:util');

const { values } = parseArgs({
  options: {
    compare: { type: 'string' },
    rounds: { type: 'string', default: '7' },
    replies: { type: 'string', default: '5000' },
  },
});
if (!values.compare) throw new Error('--compare DIST (another build of @ccb/embedded-mongo) is required');
const THIS_BUILD = path.join(__dirname, '..', '..', 'packages', 'embedded-mongo', 'dist');
const { Collection } = require(`${THIS_BUILD}/storage/collection`);
const { MemoryStore } = require(`${THIS_BUILD}/storage/store`);
const { fromBson, toBson } = require(`${THIS_BUILD}/bson/codec`);
const BUILDS = { 'this build': THIS_BUILD, compared: path.resolve(values.compare) };
const encoders = Object.fromEntries(
  Object.entries(BUILDS).map(([name, dist]) => [name, require(`${dist}/wire/messages`).encodeReply]),
);
const PROJECTION = { name: 1, price: 1, rank: 1, texts: 1, attributes: 1 };
/** A find's reply with a projection: the build's projection, its cursor's first batch, its encoder. */
const projectedEncoders = Object.fromEntries(
  Object.entries(BUILDS).map(([name, dist]) => {
    const { project } = require(`${dist}/ops/projection`);
    const { CursorRegistry } = require(`${dist}/commands/cursor-registry`);
    const encode = require(`${dist}/wire/messages`).encodeReply;
    return [
      name,
      (request, reply) => {
        const projected = project(reply.cursor.firstBatch, PROJECTION);
        return encode(request, { ...new CursorRegistry().open('bench.docs', projected, 101, true), ok: 1 });
      },
    ];
  }),
);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const small = (i) => ({ _id: i, category: 3, rank: i, name: `product ${i}`, price: 1 + i, stock: 10 });
const productSized = (i) => ({
  ...small(i),
  texts: { en: 'lorem ipsum dolor sit amet '.repeat(20), de: 'lorem ipsum dolor sit amet '.repeat(20) },
  offers: Array.from({ length: 8 }, (_, n) => ({ seller: `seller ${n}`, price: n + 0.5, quantity: n, country: 'NL' })),
  attributes: Array.from({ length: 10 }, (_, n) => ({ key: `attr${n}`, value: `value ${n}` })),
});

/** 20 documents stored in a collection of this build, as a find without projection returns them. */
function storedPage(make) {
  const collection = new Collection('bench', 'docs', {}, new MemoryStore());
  for (let i = 0; i < 20; i++) collection.insert(fromBson(toBson(make(i))));
  return [...collection.docs.values()];
}

function microsPerReply(encode, docs) {
  const request = { header: { requestId: 1 }, legacy: false };
  const start = process.hrtime.bigint();
  for (let i = 0; i < Number(values.replies); i++) {
    encode(request, { cursor: { firstBatch: docs, id: 0, ns: 'bench.docs' }, ok: 1 });
  }
  return Number(process.hrtime.bigint() - start) / 1000 / Number(values.replies);
}

const SHAPES = {
  'small documents': [small, encoders],
  'product-sized documents': [productSized, encoders],
  'small documents, 3 top-level fields projected': [small, projectedEncoders],
  'product-sized documents, 4 top-level fields projected': [productSized, projectedEncoders],
};
for (const label of Object.keys(SHAPES)) {
  const [make, builds] = SHAPES[label];
  const docs = storedPage(make);
  const request = { header: { requestId: 1 }, legacy: false };
  const reply = { cursor: { firstBatch: docs, id: 0, ns: 'bench.docs' }, ok: 1 };
  const [ours, theirs] = Object.values(builds).map((encode) => encode(request, reply).subarray(16));
  if (!ours.equals(theirs)) throw new Error(`the builds encode ${label} differently`);
  const times = { 'this build': [], compared: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, encode] of Object.entries(builds)) times[name].push(microsPerReply(encode, docs));
  }
  const [mine, other] = [median(times['this build']), median(times.compared)];
  console.log(
    `${label} (${ours.length} bytes a reply): this build ${mine.toFixed(1)} µs, compared ${other.toFixed(1)} µs` +
      ` per reply, ratio ${(mine / other).toFixed(2)}x (medians of ${values.rounds} rounds)`,
  );
}
