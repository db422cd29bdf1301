import { Query } from 'mingo';
import type { ProjectionOperator } from 'mingo/types';
import { resolve } from 'mingo/util';

/**
 * The `$elemMatch` projection: the first element that satisfies the condition the way the `$elemMatch` query
 * operator does, so a condition of operators (`{$in: […]}`, `{$gte: 1}`) applies to scalar elements. (mingo's
 * own tests each element as a document, where a top-level operator is unknown.)
 */
export const $elemMatch: ProjectionOperator = (obj, expr, field, options) => {
  const array = resolve(obj, field);
  if (!Array.isArray(array)) return undefined;
  const query = new Query({ element: { $elemMatch: expr } }, options);
  const index = array.findIndex((element) => query.test({ element: [element] }));
  return index < 0 ? undefined : [array[index]];
};

export const projectionOverrides = { $elemMatch };
