import { PipelineStage } from 'mongoose';
import { parseSearchRequest, planSearch, SearchPlan, SearchSpec, toPipeline } from '../../common/search';
import { contentScope } from '../content/scope';

/** What a container search may touch (DESIGN §6), confined to the request's site and language. */
function containerSearchSpec(): SearchSpec {
  return {
    searchableFields: ['name', 'description', 'tags', 'articles.title'],
    filterableFields: ['type', 'name', 'description', 'tags', 'published', 'createdAt', 'updatedAt'],
    defaultSort: { updatedAt: -1 },
    baseFilter: contentScope(),
  };
}

export function planContainerSearch(requestJson: string): SearchPlan {
  return planSearch(parseSearchRequest(requestJson), containerSearchSpec());
}

export function containerPipeline(requestJson: string): PipelineStage[] {
  return toPipeline(planContainerSearch(requestJson));
}
