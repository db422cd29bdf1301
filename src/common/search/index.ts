export { escapeRegex, literalMatch } from './escape-regex';
export { parseSearchRequest } from './parse-search-request';
export { planSearch, toPipeline } from './search-plan';
export { runSearch, runSearchWindow, toPagePipeline } from './search-runner';
export type { SearchPlan, SearchSpec } from './search-plan';
export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, MAX_SEARCH_TERM_LENGTH, SearchRequestDto } from './search-request.dto';
