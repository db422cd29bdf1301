import { Model, PipelineStage } from 'mongoose';
import { SearchPlan, toPipeline } from './search-plan';

type Aggregating = Pick<Model<unknown>, 'aggregate'>;

/**
 * Runs a plan against a collection in one pass: the page of documents (plain objects) and the total number of
 * matches, from one aggregate whose `$facet` windows and counts the same matches (not an aggregate and a count,
 * which would read them twice).
 */
export async function runSearch<T>(
  model: Aggregating,
  plan: SearchPlan,
  projection?: Record<string, 0 | 1>,
): Promise<{ content: T[]; total: number }> {
  const [page] = await model.aggregate<{ content: T[]; total: { total: number }[] }>(toPagePipeline(plan, projection));
  return { content: page.content, total: page.total[0]?.total ?? 0 };
}

/** Only the window of a plan, for searches that answer a list without a total. */
export function runSearchWindow<T>(model: Aggregating, plan: SearchPlan, projection?: Record<string, 0 | 1>) {
  return model.aggregate<T>(toPipeline(plan, projection)).exec();
}

/**
 * `[$match, $sort, $facet: {content: [$skip, $limit, $project?], total: [$count]}]`: the matches are read once, in
 * order (MongoDB serves the match and the sort from an index where one fits: sub-pipelines of `$facet` cannot use
 * indexes, so the sort stays before it), then windowed and counted.
 */
export function toPagePipeline(plan: SearchPlan, projection?: Record<string, 0 | 1>): PipelineStage[] {
  const [match, sort, ...window] = toPipeline(plan, projection);
  const content = window as PipelineStage.FacetPipelineStage[];
  return [match, sort, { $facet: { content, total: [{ $count: 'total' }] } }];
}
