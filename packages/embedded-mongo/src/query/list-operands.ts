import { MongoError } from '../errors';
import { isDoc } from '../types';

/** Operators whose operand MongoDB requires to be an array. */
const LIST_OPERATORS = new Set(['$in', '$nin', '$all']);
/** Top-level operators holding a list of filters. */
const FILTER_LISTS = new Set(['$and', '$or', '$nor']);

/**
 * Refuses `$in`, `$nin` or `$all` with an operand that is not an array, as MongoDB does before matching anything
 * (BadValue "$in needs an array"); mingo would throw a TypeError on the first document instead, logged as a server
 * defect. Walks the filter's logical lists and its fields' operator objects (with `$not` and `$elemMatch`), not
 * literal documents: `{a: {b: {$in: 1}}}` compares `a` with a document.
 */
export function checkListOperands(filter: unknown): void {
  if (!isDoc(filter)) return;
  for (const [key, value] of Object.entries(filter)) {
    if (FILTER_LISTS.has(key) && Array.isArray(value)) value.forEach(checkListOperands);
    else if (!key.startsWith('$') && isOperatorObject(value)) checkOperators(value);
  }
}

function checkOperators(condition: Record<string, unknown>): void {
  for (const [op, operand] of Object.entries(condition)) {
    if (LIST_OPERATORS.has(op) && !Array.isArray(operand)) throw new MongoError('BadValue', `${op} needs an array`);
    if (op === '$not' && isOperatorObject(operand)) checkOperators(operand);
    if (op === '$elemMatch' && isDoc(operand)) {
      if (isOperatorObject(operand)) checkOperators(operand);
      else checkListOperands(operand);
    }
  }
}

/** A field's condition made of operators (its first key starts with `$`), not a document it equals. */
function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isDoc(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$') && !FILTER_LISTS.has(first);
}
