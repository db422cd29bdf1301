import { candidates } from '../src/indexes/planner';
import { Collection } from '../src/storage/collection';
import { MemoryStore } from '../src/storage/store';

/** The planner must narrow `_id`, indexed equality and indexed range lookups instead of scanning. */
describe('index planner', () => {
  const collection = new Collection('db', 'planned', {}, new MemoryStore());
  for (let i = 0; i < 1000; i++) collection.insert({ _id: i, v: i, tag: i % 10, plain: i });
  collection.createIndex({ v: 2, key: { v: 1 }, name: 'v_1' });
  collection.createIndex({ v: 2, key: { tag: 1, v: -1 }, name: 'tag_1_v_-1' });

  const count = (filter: Record<string, unknown>): number => Array.from(candidates(collection, filter)).length;

  it('looks up _id and indexed equality directly', () => {
    expect(count({ _id: 42 })).toBe(1);
    expect(count({ _id: { $in: [1, 2, 3] } })).toBe(3);
    expect(count({ v: 7 })).toBe(1);
    expect(count({ tag: 3 })).toBe(100);
  });

  it('scans only the matching range of an index', () => {
    expect(count({ v: { $gte: 10, $lt: 20 } })).toBe(10);
    expect(count({ v: { $gt: 990 } })).toBe(9);
    expect(count({ $and: [{ plain: { $gt: 5 } }, { v: { $lte: 3 } }] })).toBe(4);
  });

  it('falls back to every document for unindexed fields', () => {
    expect(count({ plain: 5 })).toBe(1000);
  });

  it('looks up the first key field of a compound, descending index, nulls for missing fields', () => {
    const index = collection.indexes.get('tag_1_v_-1');
    expect(index?.lookupLeading(3).length).toBe(100);
    // In index order: v descending within tag 3.
    expect(
      index
        ?.lookupLeading(3)
        .slice(0, 3)
        .map((id) => collection.get(id)?._id),
    ).toEqual([993, 983, 973]);
    const sparse = new Collection('db', 'missing', {}, new MemoryStore());
    sparse.insert({ _id: 1 });
    sparse.insert({ _id: 2, w: null });
    sparse.insert({ _id: 3, w: 0 });
    sparse.createIndex({ v: 2, key: { w: -1 }, name: 'w_-1' });
    expect(sparse.indexes.get('w_-1')?.lookupLeading(null).length).toBe(2);
    expect(sparse.indexes.get('w_-1')?.lookupLeading(undefined).length).toBe(2);
  });
});
