import { pathValues } from '../indexes/key-extractor';
import { chooseIndex } from '../indexes/planner';
import type { Collection } from '../storage/collection';
import { isDoc, type Doc } from '../types';
import { hintedPattern } from './index-bounds';

/** The key pattern of the index a find runs on: the hinted one, the planner's, or one providing the sort. */
function usedPattern(collection: Collection, filter: Doc, hint: unknown, sort: Doc | undefined, collation?: Doc): Doc | undefined {
  if (hint !== undefined && hint !== null && !(isDoc(hint) && '$natural' in hint)) return hintedPattern(collection, hint);
  const chosen = chooseIndex(collection, filter, collation);
  if (chosen) return chosen.index.spec.key;
  const sortField = sort ? Object.keys(sort)[0] : undefined;
  return [...collection.indexes.values()].find((index) => sortField !== undefined && index.fields[0] === sortField)?.spec.key;
}

export interface ReturnKeyQuery {
  filter: Doc;
  hint?: unknown;
  sort?: Doc;
  collation?: Doc;
}

/** `returnKey`: each document reduced to its key in the index used (an empty document when none is). */
export function returnKeys(collection: Collection | undefined, docs: Doc[], query: ReturnKeyQuery): Doc[] {
  const pattern = collection ? usedPattern(collection, query.filter, query.hint, query.sort, query.collation) : undefined;
  if (!pattern) return docs.map(() => ({}));
  const fields = Object.keys(pattern);
  return docs.map((doc) => Object.fromEntries(fields.map((field) => [field, pathValues(doc, field.split('.'))[0] ?? null])));
}
