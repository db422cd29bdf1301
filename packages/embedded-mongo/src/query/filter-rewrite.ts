import { isDoc, type Doc } from '../types';

/**
 * Rewrites the parts of a filter whose MongoDB semantics mingo lacks onto our custom query operators:
 * `$type` → `$bsonType` always, and string equality → `$collatedEq`/`$collatedIn` under a collation.
 * Top-level operators mingo does not know are mapped too: `$comment` (an annotation) is dropped,
 * `$alwaysTrue`/`$alwaysFalse` become constant `$expr`s.
 */
export function rewriteFilter(filter: Doc, collated: boolean): Doc {
  const rewritten: Doc = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$comment') continue;
    if (key === '$alwaysTrue' || key === '$alwaysFalse') {
      rewritten.$expr = key === '$alwaysTrue';
    } else if (['$and', '$or', '$nor'].includes(key) && Array.isArray(condition)) {
      rewritten[key] = (condition as unknown[]).map((clause) =>
        isDoc(clause) ? rewriteFilter(clause, collated) : clause,
      );
    } else {
      rewritten[key] = key.startsWith('$') ? condition : rewriteCondition(condition, collated);
    }
  }
  return rewritten;
}

const COLLATED_RANGE: Doc = { $gt: '$collatedGt', $gte: '$collatedGte', $lt: '$collatedLt', $lte: '$collatedLte' };

function rewriteCondition(condition: unknown, collated: boolean): unknown {
  if (typeof condition === 'string' && collated) return { $collatedEq: condition };
  if (!isDoc(condition) || !Object.keys(condition).some((key) => key.startsWith('$'))) return condition;
  const rewritten: Doc = {};
  for (const [op, operand] of Object.entries(condition)) {
    if (op === '$type') rewritten.$bsonType = operand;
    else if (op === '$not' && isDoc(operand)) rewritten.$not = rewriteCondition(operand, collated);
    else if (collated && op === '$eq' && typeof operand === 'string') rewritten.$collatedEq = operand;
    else if (collated && op === '$ne' && typeof operand === 'string') rewritten.$not = { $collatedEq: operand };
    else if (collated && op in COLLATED_RANGE && typeof operand === 'string')
      rewritten[COLLATED_RANGE[op] as string] = operand;
    else if (collated && op === '$in' && Array.isArray(operand) && operand.some((v) => typeof v === 'string'))
      rewritten.$collatedIn = operand;
    else rewritten[op] = operand;
  }
  return rewritten;
}
