import { Query } from 'mingo/query';
import type { Options } from 'mingo/types';
import { resolve, setValue } from 'mingo/util';
import { MongoError } from '../errors';
import { isDoc, type Doc } from '../types';

/** One field of an update operator, e.g. `$set: {'items.$.qty': 2}` is `{op: '$set', path: 'items.$.qty', value: 2}`. */
export interface UpdateEntry {
  op: string;
  path: string;
  value: unknown;
}

export function updateEntries(operators: Doc): UpdateEntry[] {
  return Object.entries(operators).flatMap(([op, fields]) =>
    isDoc(fields) ? Object.entries(fields).map(([path, value]) => ({ op, path, value })) : [],
  );
}

/** The paths an entry writes: `$rename` writes its source and its target. */
export function writtenPaths(entry: UpdateEntry): string[] {
  return entry.op === '$rename' && typeof entry.value === 'string' ? [entry.path, entry.value] : [entry.path];
}

/** Whether `prefix` is `path` or a leading run of its dotted components. */
function isPathPrefix(prefix: string, path: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`);
}

/**
 * MongoDB refuses an update whose paths overlap: one is the other or a leading part of it, compared component by
 * component as written, so `children.$.x` and `children.$.updatedAt` are two paths but `a` and `a.b` conflict.
 */
export function checkPathConflicts(entries: UpdateEntry[]): void {
  const seen: string[] = [];
  for (const path of entries.flatMap(writtenPaths)) {
    const other = seen.find((earlier) => isPathPrefix(earlier, path) || isPathPrefix(path, earlier));
    if (other !== undefined) {
      const shorter = other.length <= path.length ? other : path;
      throw new MongoError(
        'ConflictingUpdateOperators',
        `Updating the path '${path}' would create a conflict at '${shorter}'`,
      );
    }
    seen.push(path);
  }
}

const POSITIONAL = /(^|\.)\$(\.|$)/;

export function usesPositional(entries: UpdateEntry[]): boolean {
  return entries.some(({ path }) => POSITIONAL.test(path));
}

const NO_MATCH = 'The positional operator did not find the match needed from the query.';

/**
 * The index the positional `$` after `arrayPath` stands for in a document: the first element that satisfies the
 * filter's conditions on that array (MongoDB records it while matching the query). The conditions are compiled
 * once, for every document of the statement.
 */
function positionalIndexer(arrayPath: string, filter: Doc, options: Partial<Options>): (doc: Doc) => number {
  const keys = Object.keys(filter).filter((key) => isPathPrefix(arrayPath, key));
  const queries = keys.map((key) => new Query({ [key]: filter[key] }, options));
  return (doc) => {
    const array = resolve(doc, arrayPath);
    if (keys.length === 0 || !Array.isArray(array)) throw new MongoError('BadValue', NO_MATCH);
    const index = array.findIndex((element) => {
      const single: Doc = {};
      setValue(single, arrayPath, [element]);
      return queries.every((query) => query.test(single));
    });
    if (index < 0) throw new MongoError('BadValue', NO_MATCH);
    return index;
  };
}

/** A function giving a document's entries with each positional `$` replaced by the index it stands for there. */
export function positionalResolver(
  entries: UpdateEntry[],
  filter: Doc,
  options: Partial<Options>,
): (doc: Doc) => UpdateEntry[] {
  const resolvers = entries.map((entry): ((doc: Doc) => UpdateEntry) => {
    const match = POSITIONAL.exec(entry.path);
    if (!match) return () => entry;
    const indexIn = positionalIndexer(entry.path.slice(0, match.index), filter, options);
    return (doc) => ({ ...entry, path: entry.path.replace(POSITIONAL, `$1${indexIn(doc)}$2`) });
  });
  return (doc) => resolvers.map((resolveIn) => resolveIn(doc));
}

/** The part of a path mingo's updater keys its own conflict check on: everything before the first `$` component. */
function mingoSelector(path: string): string {
  const parts = path.split('.');
  const first = parts.findIndex((part) => part.startsWith('$'));
  return (first < 0 ? parts : parts.slice(0, first)).join('.');
}

/**
 * mingo's updater sees a conflict wherever two paths share the part before their first `$`/`$[…]`
 * (`children.$[a].x` beside `children.$[a].y`), where MongoDB sees none. Paths already checked by
 * `checkPathConflicts` are therefore handed to mingo in as few modifiers as keep their selectors apart;
 * disjoint paths do not depend on the order they are applied in.
 */
export function mingoModifiers(entries: UpdateEntry[]): Doc[] {
  const batches: { selectors: string[]; modifier: Doc }[] = [];
  for (const entry of entries) {
    const selector = mingoSelector(entry.path);
    const overlaps = (other: string): boolean => isPathPrefix(other, selector) || isPathPrefix(selector, other);
    let batch = batches.find(({ selectors }) => !selectors.some(overlaps));
    if (!batch) {
      batch = { selectors: [], modifier: {} };
      batches.push(batch);
    }
    batch.selectors.push(selector);
    const fields = (batch.modifier[entry.op] ??= {}) as Doc;
    fields[entry.path] = entry.value;
  }
  return batches.map(({ modifier }) => modifier);
}

/** Operators that create the fields their paths name when those are missing. */
const CREATING_OPERATORS = new Set(['$set', '$inc', '$mul', '$min', '$max', '$push', '$addToSet', '$currentDate']);

/** Whether a field `next` can be created in (or read from) `value`: a document, or an array by index. */
function canHoldField(value: unknown, next: string): boolean {
  if (Array.isArray(value)) return /^\d+$/.test(next);
  return isDoc(value) || (value as { _bsontype?: unknown } | null)?._bsontype === 'DBRef';
}

/**
 * MongoDB refuses (`PathNotViable` 28) to create a field inside a value that cannot hold one: a scalar, null, or
 * an array addressed by a name (`comments.body` where `comments` is an array). mingo skipped such paths silently.
 */
export function checkPathsViable(doc: Doc, entries: UpdateEntry[]): void {
  for (const { op, path } of entries) {
    if (!CREATING_OPERATORS.has(op) || path.includes('$')) continue;
    const parts = path.split('.');
    let container: unknown = doc;
    for (let i = 0; i < parts.length - 1; i++) {
      const value: unknown = Array.isArray(container) ? container[Number(parts[i])] : (container as Doc)[parts[i]];
      if (value === undefined) break;
      if (!canHoldField(value, parts[i + 1])) {
        throw new MongoError(
          'PathNotViable',
          `Cannot create field '${parts[i + 1]}' in element {${parts[i]}: ${JSON.stringify(value)}}`,
        );
      }
      container = value;
    }
  }
}
