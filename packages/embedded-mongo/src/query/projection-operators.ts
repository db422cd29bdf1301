import { Query } from 'mingo';
import type { Options } from 'mingo/types';
import type { ProjectionOperator } from 'mingo/types';
import { resolve } from 'mingo/util';

/**
 * The compiled condition of each `$elemMatch` projection, by its expression object and the options it was compiled
 * with: a projection applies one expression object to every document of a reply, and compiling a mingo `Query`
 * copies its operator tables (profiled: most of a 20-document listing page's projection cost).
 */
const compiled = new WeakMap<object, { options: Options; query: Query }>();

function conditionOf(expr: object, options: Options): Query {
  const cached = compiled.get(expr);
  if (cached?.options === options) return cached.query;
  const query = new Query({ element: { $elemMatch: expr } }, options);
  compiled.set(expr, { options, query });
  return query;
}

/**
 * The `$elemMatch` projection: the first element that satisfies the condition the way the `$elemMatch` query
 * operator does, so a condition of operators (`{$in: […]}`, `{$gte: 1}`) applies to scalar elements. (mingo's
 * own tests each element as a document, where a top-level operator is unknown.)
 */
export const $elemMatch: ProjectionOperator = (obj, expr, field, options) => {
  const array = resolve(obj, field);
  if (!Array.isArray(array)) return undefined;
  const query = conditionOf(expr as object, options);
  const index = array.findIndex((element) => query.test({ element: [element] }));
  return index < 0 ? undefined : [array[index]];
};

export const projectionOverrides = { $elemMatch };
