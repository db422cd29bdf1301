import type { Db } from 'mongodb';
import { failure, startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

let harness: Harness;
let db: Db;

beforeAll(async () => {
  harness = await startHarness();
  db = harness.client.db('text_search');
});
afterAll(() => harness.stop());

const ids = (docs: AnyDoc[]): unknown[] => docs.map((doc) => doc._id);
const sortedIds = (docs: AnyDoc[]): unknown[] => ids(docs).sort();

/** The `articles` collection of MongoDB's `$text` reference page. */
const ARTICLES: AnyDoc[] = [
  { _id: 1, subject: 'coffee', author: 'xyz', views: 50 },
  { _id: 2, subject: 'Coffee Shopping', author: 'efg', views: 5 },
  { _id: 3, subject: 'Baking a cake', author: 'abc', views: 90 },
  { _id: 4, subject: 'baking', author: 'xyz', views: 100 },
  { _id: 5, subject: 'Café Con Leche', author: 'abc', views: 200 },
  { _id: 6, subject: 'Сырники', author: 'jkl', views: 80 },
  { _id: 7, subject: 'coffee and cream', author: 'efg', views: 10 },
  { _id: 8, subject: 'Cafe con Leche', author: 'xyz', views: 10 },
];

describe("$text on MongoDB's articles example", () => {
  const articles = () => db.collection<AnyDoc>('articles');
  const search = (text: { $search: string; $caseSensitive?: boolean; $diacriticSensitive?: boolean }) =>
    articles().find({ $text: text }).toArray();

  beforeAll(async () => {
    await articles().createIndex({ subject: 'text' });
    await articles().insertMany(ARTICLES);
  });

  it('finds words, any of several words, phrases and negations', async () => {
    expect(sortedIds(await search({ $search: 'coffee' }))).toEqual([1, 2, 7]);
    expect(sortedIds(await search({ $search: 'bake coffee cake' }))).toEqual([1, 2, 3, 4, 7]);
    expect(ids(await search({ $search: '"coffee shop"' }))).toEqual([2]);
    expect(sortedIds(await search({ $search: 'coffee -shop' }))).toEqual([1, 7]);
    expect(sortedIds(await search({ $search: 'coffee -"coffee shop"' }))).toEqual([1, 7]);
    expect(sortedIds(await search({ $search: 'coffee - shop' }))).toEqual([1, 2, 7]);
  });

  it('honours $caseSensitive and $diacriticSensitive', async () => {
    expect(ids(await search({ $search: 'Coffee', $caseSensitive: true }))).toEqual([2]);
    expect(ids(await search({ $search: '"Café Con Leche"', $caseSensitive: true }))).toEqual([5]);
    expect(ids(await search({ $search: 'Coffee -shop', $caseSensitive: true }))).toEqual([2]);
    expect(ids(await search({ $search: 'CAFÉ', $diacriticSensitive: true }))).toEqual([5]);
    expect(ids(await search({ $search: 'leches -cafés', $diacriticSensitive: true }))).toEqual([8]);
    expect(sortedIds(await search({ $search: 'cafe' }))).toEqual([5, 8]);
  });

  it('returns and sorts by the documented text scores', async () => {
    const cake = await articles()
      .find({ $text: { $search: 'CAKE' } }, { projection: { score: { $meta: 'textScore' } } })
      .toArray();
    expect(cake).toEqual([{ _id: 3, subject: 'Baking a cake', author: 'abc', views: 90, score: 0.75 }]);
    const coffee = await articles()
      .find({ $text: { $search: 'coffee' } }, { projection: { subject: 1, score: { $meta: 'textScore' } } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(coffee[0]).toEqual({ _id: 1, subject: 'coffee', score: 1 });
    expect(coffee.slice(1).map((doc) => doc.score)).toEqual([0.75, 0.75]);
    expect(sortedIds(coffee.slice(1))).toEqual([2, 7]);
    const tiesByViews = await articles()
      .find({ $text: { $search: 'coffee' } })
      .sort({ score: { $meta: 'textScore' }, views: 1 })
      .toArray();
    expect(ids(tiesByViews)).toEqual([1, 2, 7]);
  });

  it('combines $text with other conditions, sort, skip and limit', async () => {
    const found = await articles()
      .find({ $text: { $search: 'coffee cake' }, views: { $gte: 10 } })
      .sort({ views: -1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(ids(found)).toEqual([1, 7]);
    expect(await articles().countDocuments({ $text: { $search: 'coffee' } })).toBe(3);
  });

  it('runs a $text $match first in a pipeline, with textScore in $sort, $project and $addFields', async () => {
    const ranked = await articles()
      .aggregate([
        { $match: { $text: { $search: 'cake coffee' } } },
        { $sort: { score: { $meta: 'textScore' }, _id: 1 } },
        { $project: { subject: 1, score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(ranked.map((doc) => [doc._id, doc.score])).toEqual([
      [1, 1],
      [2, 0.75],
      [3, 0.75],
      [7, 0.75],
    ]);
    const added = await articles()
      .aggregate([
        { $match: { $text: { $search: 'baking' } } },
        { $addFields: { s: { $meta: 'textScore' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(added).toEqual([
      { ...ARTICLES[2], s: 0.75 },
      { ...ARTICLES[3], s: 1 },
    ]);
    const grouped = await articles()
      .aggregate([
        { $match: { $text: { $search: 'coffee' } } },
        { $group: { _id: null, total: { $sum: { $meta: 'textScore' } } } },
      ])
      .toArray();
    expect(grouped).toEqual([{ _id: null, total: 2.5 }]);
  });

  it('refuses a $text $match that is not the first stage (17313)', async () => {
    const error = await failure(
      articles()
        .aggregate([{ $sort: { _id: 1 } }, { $match: { $text: { $search: 'coffee' } } }])
        .toArray(),
    );
    expect(error).toMatchObject({
      code: 17313,
      message: '$match with $text is only allowed as the first pipeline stage',
    });
  });

  it('explains a text query as TEXT_MATCH over the text index', async () => {
    const plan = await articles()
      .find({ $text: { $search: 'coffee -shop "coffee"' } })
      .explain('executionStats');
    expect(plan.queryPlanner.winningPlan).toMatchObject({
      stage: 'TEXT_MATCH',
      indexName: 'subject_text',
      parsedTextQuery: { terms: ['coffe'], negatedTerms: ['shop'], phrases: ['coffee'], negatedPhrases: [] },
    });
    expect(plan.executionStats.nReturned).toBe(2);
  });

  it('lists the index as MongoDB stores it', async () => {
    const indexes = await articles().listIndexes().toArray();
    expect(indexes[1]).toEqual({
      v: 2,
      key: { _fts: 'text', _ftsx: 1 },
      name: 'subject_text',
      weights: { subject: 1 },
      default_language: 'english',
      language_override: 'language',
      textIndexVersion: 3,
    });
  });
});

describe('text index scoring', () => {
  it("weights fields (MongoDB's blog example) and counts repeated terms with decreasing weight", async () => {
    const blog = db.collection<AnyDoc>('blog');
    await blog.insertMany([
      { _id: 1, content: 'This morning I had a cup of coffee.', about: 'beverage', keywords: ['coffee'] },
      { _id: 2, content: 'Who likes chocolate ice cream for dessert?', about: 'food', keywords: ['poll'] },
      {
        _id: 3,
        content: 'My favorite flavors are strawberry and coffee',
        about: 'ice cream',
        keywords: ['food', 'dessert'],
      },
      { _id: 4, content: 'coffee coffee coffee', about: 'x', keywords: [] },
    ]);
    await blog.createIndex(
      { content: 'text', keywords: 'text', about: 'text' },
      { weights: { content: 10, keywords: 5 }, name: 'TextIndex' },
    );
    const found = await blog
      .find({ $text: { $search: 'coffee' } }, { projection: { score: { $meta: 'textScore' } } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    // Per string: weight × (1 + 1/2 + 1/4 …) × (0.5 × count / tokens + 0.5), stop words not counted.
    // 4: 10 × 1.75 × 1; 1: 10 × (0.5/3 + 0.5) + 5 × 1 (keywords); 3: 10 × (0.5/4 + 0.5).
    expect(ids(found)).toEqual([4, 1, 3]);
    expect(found[0].score).toBeCloseTo(17.5, 10);
    expect(found[1].score).toBeCloseTo(10 * (0.5 / 3 + 0.5) + 5, 10);
    expect(found[2].score).toBeCloseTo(6.25, 10);
    const spec = (await blog.listIndexes().toArray()).find((index) => index.name === 'TextIndex');
    expect(spec?.weights).toEqual({ about: 1, content: 10, keywords: 5 });
  });

  it('boosts a string that is exactly the term by 10%', async () => {
    const tags = db.collection<AnyDoc>('tags');
    await tags.createIndex({ tag: 'text' });
    await tags.insertMany([
      { _id: 1, tag: 'cake' },
      { _id: 2, tag: 'Cake' },
      { _id: 3, tag: 'cakes' },
    ]);
    const found = await tags
      .find({ $text: { $search: 'cake' } }, { projection: { score: { $meta: 'textScore' } } })
      .sort({ _id: 1 })
      .toArray();
    expect(found.map((doc) => doc.score)).toEqual([1.1, 1.1, 1]);
  });
});

describe('languages', () => {
  it('stems English words and drops English stop words', async () => {
    const posts = db.collection<AnyDoc>('english_posts');
    await posts.createIndex({ body: 'text' });
    await posts.insertMany([
      { _id: 1, body: 'She runs every day' },
      { _id: 2, body: 'Running shoes' },
      { _id: 3, body: 'The ran' },
    ]);
    expect(sortedIds(await posts.find({ $text: { $search: 'run' } }).toArray())).toEqual([1, 2]);
    expect(await posts.find({ $text: { $search: 'the and of' } }).toArray()).toEqual([]);
  });

  it('stems German words, folds umlauts and drops German stop words', async () => {
    const houses = db.collection<AnyDoc>('german_houses');
    await houses.createIndex({ text: 'text' }, { default_language: 'german' });
    await houses.insertMany([
      { _id: 1, text: 'Die Häuser am See' },
      { _id: 2, text: 'Ein kleines Haus im Wald' },
      { _id: 3, text: 'Das Auto und die Straße' },
    ]);
    expect(sortedIds(await houses.find({ $text: { $search: 'Häuser' } }).toArray())).toEqual([1, 2]);
    expect(sortedIds(await houses.find({ $text: { $search: 'hauser' } }).toArray())).toEqual([1, 2]);
    expect(ids(await houses.find({ $text: { $search: 'Strasse' } }).toArray())).toEqual([3]);
    expect(await houses.find({ $text: { $search: 'und die das' } }).toArray()).toEqual([]);
  });

  it('analyses a document in its language_override language and the query in $language', async () => {
    const mixed = db.collection<AnyDoc>('mixed_languages');
    await mixed.createIndex({ text: 'text' });
    await mixed.insertMany([
      { _id: 1, text: 'Die Häuser', language: 'german' },
      { _id: 2, text: 'die houses' },
    ]);
    expect(ids(await mixed.find({ $text: { $search: 'Haus', $language: 'de' } }).toArray())).toEqual([1]);
    expect(ids(await mixed.find({ $text: { $search: 'house' } }).toArray())).toEqual([2]);
    const error = await failure(mixed.insertOne({ _id: 3, text: 'x', language: 'klingon' }));
    expect(error).toMatchObject({ code: 17262, message: 'language override unsupported: klingon' });
  });

  it('indexes words unchanged with language "none"', async () => {
    const raw = db.collection<AnyDoc>('no_language');
    await raw.createIndex({ text: 'text' }, { default_language: 'none' });
    await raw.insertMany([{ _id: 1, text: 'the running man' }]);
    expect(ids(await raw.find({ $text: { $search: 'the' } }).toArray())).toEqual([1]);
    expect(await raw.find({ $text: { $search: 'run' } }).toArray()).toEqual([]);
  });
});

describe('text index maintenance and shapes', () => {
  it('follows inserts, updates and deletes', async () => {
    const notes = db.collection<AnyDoc>('notes');
    await notes.createIndex({ title: 'text' });
    await notes.insertMany([
      { _id: 1, title: 'green tea' },
      { _id: 2, title: 'black tea' },
    ]);
    await notes.updateOne({ _id: 1 }, { $set: { title: 'green coffee' } });
    await notes.deleteOne({ _id: 2 });
    await notes.insertOne({ _id: 3, title: 'tea time' });
    expect(ids(await notes.find({ $text: { $search: 'tea' } }).toArray())).toEqual([3]);
    expect(ids(await notes.find({ $text: { $search: 'coffee' } }).toArray())).toEqual([1]);
    const updated = await notes.updateMany({ $text: { $search: 'coffee tea' } }, { $set: { seen: true } });
    expect(updated.modifiedCount).toBe(2);
    expect(
      ids(
        await notes
          .find({ $text: { $search: 'coffee tea' }, seen: true })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([1, 3]);
  });

  it('indexes every string field with the $** wildcard, nested and in arrays', async () => {
    const wild = db.collection<AnyDoc>('wildcard');
    await wild.createIndex({ '$**': 'text' });
    await wild.insertMany([
      { _id: 1, a: { b: 'deep word' } },
      { _id: 2, list: ['other', 'word'] },
      { _id: 3, n: 5 },
    ]);
    expect(sortedIds(await wild.find({ $text: { $search: 'word' } }).toArray())).toEqual([1, 2]);
  });

  it('holds only the documents of its partialFilterExpression', async () => {
    const partial = db.collection<AnyDoc>('partial_text');
    await partial.createIndex({ t: 'text' }, { partialFilterExpression: { live: true } });
    await partial.insertMany([
      { _id: 1, t: 'red apple', live: true },
      { _id: 2, t: 'green apple', live: false },
    ]);
    await partial.updateOne({ _id: 1 }, { $set: { live: false } });
    await partial.updateOne({ _id: 2 }, { $set: { live: true } });
    expect(ids(await partial.find({ $text: { $search: 'apple' }, live: true }).toArray())).toEqual([2]);
  });

  it('answers a compound text index only with an equality on its prefix field', async () => {
    const shop = db.collection<AnyDoc>('shop');
    await shop.createIndex({ category: 1, name: 'text' });
    await shop.insertMany([
      { _id: 1, category: 'food', name: 'apple pie' },
      { _id: 2, category: 'toys', name: 'apple toy' },
    ]);
    expect(ids(await shop.find({ category: 'food', $text: { $search: 'apple' } }).toArray())).toEqual([1]);
    const error = await failure(shop.find({ $text: { $search: 'apple' } }).toArray());
    expect(error.code).toBe(2);
    expect(error.message).toContain('failed to use text index to satisfy $text query');
  });

  it('keeps the text index when the collection is renamed', async () => {
    const before = db.collection<AnyDoc>('before_rename');
    await before.createIndex({ t: 'text' });
    await before.insertOne({ _id: 1, t: 'renamed words' });
    await before.rename('after_rename');
    const after = db.collection<AnyDoc>('after_rename');
    expect(ids(await after.find({ $text: { $search: 'word' } }).toArray())).toEqual([1]);
  });

  it('keeps the text index across a restart of a durable store', async () => {
    const dir = tempDir();
    try {
      const first = await startHarness({ dbPath: dir.path });
      await first.client.db('d').collection<AnyDoc>('c').createIndex({ t: 'text' });
      await first.client.db('d').collection<AnyDoc>('c').insertOne({ _id: 1, t: 'persistent words' });
      await first.stop();
      const second = await startHarness({ dbPath: dir.path });
      const found = await second.client
        .db('d')
        .collection<AnyDoc>('c')
        .find({ $text: { $search: 'word' } })
        .toArray();
      await second.stop();
      expect(ids(found)).toEqual([1]);
    } finally {
      dir.remove();
    }
  });
});

describe('text errors', () => {
  it('matches nothing in a collection that does not exist', async () => {
    expect(
      await db
        .collection<AnyDoc>('missing')
        .find({ $text: { $search: 'x' } })
        .toArray(),
    ).toEqual([]);
    const pipeline = [{ $match: { $text: { $search: 'x' } } }, { $project: { score: { $meta: 'textScore' } } }];
    expect(await db.collection<AnyDoc>('missing').aggregate(pipeline).toArray()).toEqual([]);
  });

  it('refuses textScore without $text (40218)', async () => {
    const plain = db.collection<AnyDoc>('articles');
    const message = 'query requires text score metadata, but it is not available';
    const projected = plain.find({}, { projection: { score: { $meta: 'textScore' } } }).toArray();
    expect(await failure(projected)).toMatchObject({ code: 40218, message });
    const added = plain.aggregate([{ $addFields: { score: { $meta: 'textScore' } } }]).toArray();
    expect(await failure(added)).toMatchObject({ code: 40218, message });
  });

  it('needs a text index for $text (IndexNotFound 27)', async () => {
    await db.collection<AnyDoc>('plain').insertOne({ _id: 1, t: 'x' });
    const error = await failure(
      db
        .collection<AnyDoc>('plain')
        .find({ $text: { $search: 'x' } })
        .toArray(),
    );
    expect(error).toMatchObject({
      code: 27,
      codeName: 'IndexNotFound',
      message: 'text index required for $text query',
    });
  });

  it('refuses a second text index (IndexOptionsConflict 85) and accepts the same one again', async () => {
    const twice = db.collection<AnyDoc>('twice');
    await twice.createIndex({ a: 'text' });
    expect(await twice.createIndex({ a: 'text' })).toBe('a_text');
    const error = await failure(twice.createIndex({ b: 'text' }));
    expect(error).toMatchObject({ code: 85, codeName: 'IndexOptionsConflict' });
    expect(error.message).toContain('An equivalent index already exists with a different name and options');
  });

  it('refuses an unsupported language, bad weights and two $text expressions', async () => {
    const bad = db.collection<AnyDoc>('bad_text');
    expect(await failure(bad.createIndex({ a: 'text' }, { default_language: 'klingon' }))).toMatchObject({ code: 2 });
    expect(await failure(bad.createIndex({ a: 'text' }, { weights: { a: 0 } }))).toMatchObject({ code: 67 });
    await bad.createIndex({ a: 'text' });
    expect(await failure(bad.find({ $text: { $search: 'x', $language: 'klingon' } }).toArray())).toMatchObject({
      code: 2,
    });
    const two = { $and: [{ $text: { $search: 'x' } }, { $text: { $search: 'y' } }] };
    expect(await failure(bad.find(two).toArray())).toMatchObject({ code: 17287, message: 'Too many text expressions' });
  });
});

describe('index sizes', () => {
  it('counts the text and geo indexes in collStats, growing with their keys', async () => {
    const shops = db.collection<AnyDoc>('sized');
    await shops.createIndex({ title: 'text' });
    await shops.createIndex({ location: '2dsphere' });
    type Stats = { nindexes: number; indexSizes: Record<string, number> };
    const sizes = async () => (await db.command({ collStats: 'sized' })) as Stats;
    const empty = await sizes();
    expect(empty.nindexes).toBe(3);
    expect(empty.indexSizes).toEqual({ _id_: 0, title_text: 0, location_2dsphere: 0 });
    await shops.insertOne({ _id: 1, title: 'red roses', location: { type: 'Point', coordinates: [13.4, 52.5] } });
    const one = await sizes();
    const paris = { type: 'Point', coordinates: [2.3, 48.9] };
    await shops.insertOne({ _id: 2, title: 'red tulips and white roses', location: paris });
    const two = await sizes();
    expect(one.indexSizes.title_text).toBeGreaterThan(0);
    expect(two.indexSizes.title_text).toBeGreaterThan(one.indexSizes.title_text);
    expect(two.indexSizes.location_2dsphere).toBe(2 * one.indexSizes.location_2dsphere);
    expect(one.indexSizes.location_2dsphere).toBeGreaterThan(0);
  });
});
