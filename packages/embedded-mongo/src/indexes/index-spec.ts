import type { Doc } from '../types';

/** An index as listed by listIndexes (and persisted in the catalog). */
export interface IndexSpec extends Doc {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  expireAfterSeconds?: number;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** The default index name MongoDB derives from a key pattern: `a_1_b_-1`. */
export function defaultIndexName(key: Doc): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(direction)}`)
    .join('_');
}
