import { isDoc, type Doc } from '../types';
import { fieldInclusion } from './field-projection';
import type { MatchOptions } from './match-options';

const isCount = (value: unknown, least: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= least;
const isPlainSort = (sort: unknown): sort is Doc =>
  isDoc(sort) &&
  Object.keys(sort).length > 0 &&
  Object.values(sort).every((direction) => direction === 1 || direction === -1);

/**
 * The `$sort`, `$skip`, `$limit` and plain top-level `$project` (in that order, each optional) right after a
 * leading `$match`, as find options: the planner then reads them as a find does (an index providing the sort and
 * stopping after the limit, the stored documents' fields picked), where mingo would sort every match. The rest of
 * the pipeline runs as it is.
 */
export function pushedDown(stages: Doc[]): { options: MatchOptions; stages: Doc[] } {
  const options: MatchOptions = {};
  let next = 0;
  if (isPlainSort(stages[next]?.$sort)) options.sort = stages[next++].$sort as Doc;
  if (isCount(stages[next]?.$skip, 0)) options.skip = stages[next++].$skip as number;
  if (isCount(stages[next]?.$limit, 1)) options.limit = stages[next++].$limit as number;
  const projection = stages[next]?.$project;
  if (isDoc(projection) && fieldInclusion(projection)) {
    options.projection = projection;
    next++;
  }
  return { options, stages: stages.slice(next) };
}
