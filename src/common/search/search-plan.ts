import { BadRequestException } from '@nestjs/common';
import { PipelineStage } from 'mongoose';
import { isObjectIdHex } from '../mongo/object-id';
import { literalMatch } from './escape-regex';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, SearchRequestDto } from './search-request.dto';

/** What an entity allows a search request to touch. */
export interface SearchSpec {
  /** Fields that `searchTerm` is matched against (literal, case-insensitive; any of them). */
  searchableFields: readonly string[];
  /** Fields allowed as keys of `query` and as `sortName` (anything else is a 400); omitted: any field. */
  filterableFields?: readonly string[];
  /** Order used when the request names none; `_id` is always appended so pages are stable. */
  defaultSort?: Record<string, 1 | -1>;
  /** Conditions always applied (e.g. visibility), combined with the request's own. */
  baseFilter?: Record<string, unknown>;
  /**
   * Fields whose stored values come from a closed set (a schema enum): a wrapped text value becomes `$in` of the
   * set's values that contain it ignoring case, which matches the same documents and can use an index.
   */
  closedFields?: Record<string, readonly string[]>;
  /**
   * Fields holding ids as 24 lower-case hex digits: a wrapped text value that is a whole id can only match that id,
   * so it becomes an equality (served by an index).
   */
  idFields?: readonly string[];
}

/** A validated search, ready to run: a filter for `$match`/`countDocuments`, order and window. */
export interface SearchPlan {
  filter: Record<string, unknown>;
  sort: Record<string, 1 | -1>;
  skip: number;
  limit: number;
  /** 0-based page number of the window, for `Page` results. */
  page: number;
}

/**
 * Turns a parsed search request into a {@link SearchPlan} for one entity (DESIGN §6): `searchTerm` and string
 * values of `query` match literally and case-insensitively (unless the field is in `ignoreRegexWrap`), other
 * values by equality; `limit` defaults to 20 and is clamped to 200; `page` wins over `offset`.
 *
 * @example
 * const plan = planSearch(parseSearchRequest(json), { searchableFields: ['name'], filterableFields: ['name', 'country'] });
 * const pipeline = toPipeline(plan, { name: 1, country: 1 });
 */
export function planSearch(request: SearchRequestDto, spec: SearchSpec): SearchPlan {
  const limit = Math.min(request.limit ?? DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT);
  const skip = request.page !== undefined ? request.page * limit : (request.offset ?? 0);
  return {
    filter: buildFilter(request, spec),
    sort: buildSort(request, spec),
    skip,
    limit,
    page: Math.floor(skip / limit),
  };
}

/** The aggregation pipeline a plan runs, as plain JSON (what `getPaginationFilter` returns). */
export function toPipeline(plan: SearchPlan, projection?: Record<string, 0 | 1>): PipelineStage[] {
  const stages: PipelineStage[] = [
    { $match: plan.filter },
    { $sort: plan.sort },
    { $skip: plan.skip },
    { $limit: plan.limit },
  ];
  if (projection) stages.push({ $project: projection });
  return stages;
}

function buildFilter(request: SearchRequestDto, spec: SearchSpec): Record<string, unknown> {
  const conditions: Record<string, unknown>[] = [];
  if (spec.baseFilter) conditions.push(spec.baseFilter);
  if (request.searchTerm) {
    const match = literalMatch(request.searchTerm);
    conditions.push({ $or: spec.searchableFields.map((field) => ({ [field]: match })) });
  }
  const unwrapped = new Set(request.ignoreRegexWrap ?? []);
  for (const [field, value] of Object.entries(request.query ?? {})) {
    assertAllowed(field, spec, 'query');
    const wrap = typeof value === 'string' && !unwrapped.has(field);
    conditions.push({ [field]: wrap ? textCondition(field, value, spec) : value });
  }
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}

/** The literal, case-insensitive match of `text` on `field`, in an indexable form where the field allows one. */
function textCondition(field: string, text: string, spec: SearchSpec): unknown {
  const closed = spec.closedFields?.[field];
  if (closed) return { $in: closed.filter((value) => value.toLowerCase().includes(text.toLowerCase())) };
  if (spec.idFields?.includes(field) && isObjectIdHex(text)) return text.toLowerCase();
  return literalMatch(text);
}

function buildSort(request: SearchRequestDto, spec: SearchSpec): Record<string, 1 | -1> {
  if (!request.sortName) return { ...spec.defaultSort, _id: 1 };
  assertAllowed(request.sortName, spec, 'sortName');
  const direction = request.sortDirection?.toUpperCase() === 'DESC' ? -1 : 1;
  return { [request.sortName]: direction, _id: direction };
}

function assertAllowed(field: string, spec: SearchSpec, where: string): void {
  const allowed = spec.filterableFields;
  if (allowed ? !allowed.includes(field) : !isPlainPath(field)) {
    const hint = allowed ? `; allowed: ${allowed.join(', ')}` : '';
    throw new BadRequestException(`Field "${field}" cannot be used in ${where}${hint}`);
  }
}

function isPlainPath(field: string): boolean {
  return field.split('.').every((segment) => segment !== '' && !segment.startsWith('$'));
}
