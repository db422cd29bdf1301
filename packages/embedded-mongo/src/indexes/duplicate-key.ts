import { Binary } from 'bson';
import { binDataText } from '../bson/comparable-binary';
import { MongoError } from '../errors';
import type { IndexSpec } from './index-spec';

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value && typeof value === 'object' && 'toHexString' in value) return `ObjectId('${String(value)}')`;
  if (value instanceof Binary) return binDataText(value);
  return String(value);
}

/** E11000 with the `keyPattern`/`keyValue` fields drivers and mongoose read. */
export function duplicateKeyError(ns: string, spec: IndexSpec, key: unknown[]): MongoError {
  const fields = Object.keys(spec.key);
  const keyValue = Object.fromEntries(fields.map((field, i) => [field, key[i]]));
  const shown = fields.map((field, i) => `${field}: ${describe(key[i])}`).join(', ');
  return new MongoError(
    'DuplicateKey',
    `E11000 duplicate key error collection: ${ns} index: ${spec.name} dup key: { ${shown} }`,
    {
      keyPattern: spec.key,
      keyValue,
    },
  );
}
