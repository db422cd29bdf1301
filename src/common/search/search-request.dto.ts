import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 200;
/** Every document is matched against the term's pattern, so its length is bounded. */
export const MAX_SEARCH_TERM_LENGTH = 256;

/**
 * Numbers may come as text ("2"); anything else is left for the validators. Not `@NumberFromText()`: `Number()` of
 * an object whose `toString` is not a function throws (fuzzing found `{"page": {"toString": null}}` answered 500).
 */
const NumberFromText = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value));

/**
 * A search request as clients send it (DESIGN §6); every field is optional. `type` names the entity kind and is
 * informative only. A `limit` above {@link MAX_SEARCH_LIMIT} is clamped rather than refused.
 */
export class SearchRequestDto {
  @IsOptional() @IsString() type?: string;
  @IsOptional() @IsString() @MaxLength(MAX_SEARCH_TERM_LENGTH) searchTerm?: string;
  @IsOptional() @IsObject() query?: Record<string, unknown>;
  @IsOptional() @IsArray() @IsString({ each: true }) ignoreRegexWrap?: string[];
  @IsOptional() @NumberFromText() @IsInt() @Min(0) offset?: number;
  @IsOptional() @NumberFromText() @IsInt() @Min(1) limit?: number;
  @IsOptional() @NumberFromText() @IsInt() @Min(0) visiblePages?: number;
  @IsOptional() @NumberFromText() @IsInt() @Min(0) page?: number;
  @IsOptional() @IsString() sortName?: string;
  @IsOptional() @IsIn(['ASC', 'DESC', 'asc', 'desc']) sortDirection?: string;
}
