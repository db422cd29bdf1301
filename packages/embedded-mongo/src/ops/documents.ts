import { deserialize, ObjectId, serialize } from 'bson';
import type { Doc } from '../types';

/** A deep copy that keeps BSON classes (ObjectId, Binary, Long, ...) intact. */
export function cloneDoc(doc: Doc): Doc {
  return deserialize(serialize(doc, { ignoreUndefined: true }));
}

/** MongoDB stores `_id` as the first field and generates an ObjectId when it is missing. */
export function withIdFirst(doc: Doc): Doc {
  if (Object.keys(doc)[0] === '_id' && doc._id !== undefined) return doc;
  const { _id, ...rest } = doc;
  return { _id: _id ?? new ObjectId(), ...rest };
}

export function isOperatorDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).some((key) => key.startsWith('$'));
}
