import { ObjectId } from 'bson';
import { fromBson, serializeDocument } from '../bson/codec';
import { copyNumberTypes } from '../bson/number-types';
import type { Doc } from '../types';

/** A deep copy that keeps BSON classes (ObjectId, Binary, Long, ...) intact. */
export function cloneDoc(doc: Doc): Doc {
  return fromBson(serializeDocument(doc));
}

/** MongoDB stores `_id` as the first field and generates an ObjectId when it is missing (null is a valid `_id`). */
export function withIdFirst(doc: Doc): Doc {
  if (Object.keys(doc)[0] === '_id' && doc._id !== undefined) return doc;
  const { _id, ...rest } = doc;
  return withNumberTypesOf(doc, { _id: _id === undefined ? new ObjectId() : _id, ...rest });
}

/** `copy` (built by spreading `source`) keeps the BSON number types of `source`. */
export function withNumberTypesOf(source: Doc, copy: Doc): Doc {
  copyNumberTypes(source, copy);
  return copy;
}

export function isOperatorDoc(value: unknown): value is Doc {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).some((key) => key.startsWith('$'))
  );
}

type Container = Doc | unknown[];

function isContainer(value: unknown): value is Container {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as object | null;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a stored document that an update writing `paths` (dotted, without positional components) may mutate:
 * the document and the containers (objects and arrays) on each path are copied with their number types, all else is
 * shared with `doc`, which stays as it was (stored documents are never mutated in place). Undefined where a path
 * leads through an array by a name rather than an index, which an updater might apply to every element.
 */
export function copyAlong(doc: Doc, paths: string[]): Doc | undefined {
  const copies = new Set<Container>();
  const copy = <T extends Container>(container: T): T => {
    const owned = (Array.isArray(container) ? [...container] : { ...container }) as T;
    copyNumberTypes(container, owned);
    copies.add(owned);
    return owned;
  };
  const root = copy(doc);
  for (const path of paths) {
    let container: Container = root;
    for (const part of path.split('.')) {
      if (Array.isArray(container) && !/^\d+$/.test(part)) return undefined;
      const fields = container as Record<string, unknown>;
      const value = fields[part];
      if (!isContainer(value)) break;
      container = copies.has(value) ? value : (fields[part] = copy(value));
    }
  }
  return root;
}
