import type { Engine } from './storage/engine';

const MIN_DATE = new Date(-8.64e15);

/**
 * Removes documents whose TTL-indexed date is older than `expireAfterSeconds` (MongoDB runs this
 * monitor every 60 s; the interval is configurable so tests need not wait). Uses the index range
 * scan, so only expired entries are visited.
 */
export function sweepExpired(engine: Engine, now = Date.now()): number {
  let removed = 0;
  for (const collection of engine.all()) {
    for (const index of [...collection.indexes.values()]) {
      const seconds = index.spec.expireAfterSeconds;
      if (typeof seconds !== 'number' || index.fields.length !== 1) continue;
      const cutoff = new Date(now - seconds * 1000);
      for (const id of index.scan({ value: MIN_DATE, inclusive: true }, { value: cutoff, inclusive: false })) {
        const doc = collection.get(id);
        if (doc) {
          collection.remove(doc);
          removed++;
        }
      }
    }
  }
  return removed;
}
