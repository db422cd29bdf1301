import type { Collection } from '../storage/collection';
import type { Doc } from '../types';
import type { IndexBounds } from './index-bounds';

/** What reads run over: a collection (with its indexes), a view's documents, or nothing. */
export type ReadSource = Collection | Doc[] | undefined;

/** What a read asks besides its filter (find's options, or a stage's). */
export interface MatchOptions {
  sort?: Doc;
  skip?: number;
  limit?: number;
  projection?: Doc;
  hint?: unknown;
  bounds?: IndexBounds;
}
