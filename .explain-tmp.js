// Scratch: explain the search reads on a seeded data dir served by `npm run db` (not committed).
const { MongoClient } = require('mongodb');
const { searchKeysFor } = require('./dist/services/catalogue/search-terms');
(async () => {
  const client = await MongoClient.connect(process.argv[2]);
  const db = client.db(process.argv[3] || 'ccb');
  const coll = db.collection('storefront_index');
  const keys = [...new Set(['ficus'].flatMap(searchKeysFor))];
  const filter = { scope: '*', listed: true, searchKeys: { $in: keys } };
  const show = (name, e) => {
    const s = e.executionStats;
    console.log(name, 'nReturned', s.nReturned, 'keys', s.totalKeysExamined, 'docs', s.totalDocsExamined, 'ms', s.executionTimeMillis);
  };
  for (const sort of [{ price: 1, _id: 1 }, { price: -1, _id: 1 }, { name: 1, _id: 1 }, { createdAt: -1, _id: -1 }]) {
    show('page ' + JSON.stringify(sort), await coll.find(filter).sort(sort).limit(20).explain('executionStats'));
  }
  show('relevance candidates', await coll.find(filter, { projection: { name: 1, 'translations.name': 1, terms: 1 } }).sort({ price: 1, _id: 1 }).limit(100).explain('executionStats'));
  const count = await db.command({ explain: { count: 'storefront_index', query: filter }, verbosity: 'executionStats' });
  show('count', count);
  console.log('count n', (await db.command({ count: 'storefront_index', query: filter })).n);
  await client.close();
})();
