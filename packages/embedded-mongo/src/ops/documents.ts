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
