import { MongoError } from '../errors';
import { bsonTypeOf } from '../query/bson-type';
import { isDoc, type Doc } from '../types';

const VERBS: Record<string, string> = { $inc: 'increment', $mul: 'multiply' };
const NUMERIC = new Set(['int', 'long', 'double', 'decimal']);

const isNumeric = (value: unknown): boolean => NUMERIC.has(bsonTypeOf(value));

/** The value at a plain dotted path (no positional `$` parts), or undefined where the path leaves objects. */
function valueAt(doc: Doc, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (isDoc(value)) value = value[part];
    else return undefined;
  }
  return value;
}

const spell = (value: unknown): string =>
  typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? 'null');

/**
 * `$inc` and `$mul` need numbers on both sides; mingo silently skips what is not. MongoDB answers `TypeMismatch`
 * (14) for a non-numeric argument and for an existing non-numeric field, and applies nothing.
 */
export function checkArithmetic(currents: Doc[], operators: Doc): void {
  for (const [operator, verb] of Object.entries(VERBS)) {
    const fields = operators[operator];
    if (!isDoc(fields)) continue;
    for (const [path, argument] of Object.entries(fields)) {
      if (!isNumeric(argument)) {
        throw new MongoError('TypeMismatch', `Cannot ${verb} with non-numeric argument: {${path}: ${spell(argument)}}`);
      }
      if (path.includes('$')) continue;
      for (const doc of currents) checkField(doc, path, operator);
    }
  }
}

function checkField(doc: Doc, path: string, operator: string): void {
  const value = valueAt(doc, path);
  if (value === undefined || isNumeric(value)) return;
  const field = path.slice(path.lastIndexOf('.') + 1);
  throw new MongoError(
    'TypeMismatch',
    `Cannot apply ${operator} to a value of non-numeric type. {_id: ${spell(doc._id)}} has the field '${field}' ` +
      `of non-numeric type ${bsonTypeOf(value)}`,
  );
}
