import { Model } from 'mongoose';
import { SearchPlan, toPipeline } from './search-plan';

/** Runs a plan against a collection: the page of documents (plain objects) and the total number of matches. */
export async function runSearch<T>(
  model: Pick<Model<unknown>, 'aggregate' | 'countDocuments'>,
  plan: SearchPlan,
  projection?: Record<string, 0 | 1>,
): Promise<{ content: T[]; total: number }> {
  const [content, total] = await Promise.all([
    model.aggregate<T>(toPipeline(plan, projection)).exec(),
    model.countDocuments(plan.filter).exec(),
  ]);
  return { content, total };
}
