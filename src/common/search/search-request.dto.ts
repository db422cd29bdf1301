import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 200;
/** Every document is matched against the term's pattern, so its length is bounded. */
export const MAX_SEARCH_TERM_LENGTH = 256;

/**
 * A search request as clients send it (DESIGN §6); every field is optional. `type` names the entity kind and is
 * informative only. A `limit` above {@link MAX_SEARCH_LIMIT} is clamped rather than refused.
 */
export class SearchRequestDto {
  @IsOptional() @IsString() type?: string;
  @IsOptional() @IsString() @MaxLength(MAX_SEARCH_TERM_LENGTH) searchTerm?: string;
  @IsOptional() @IsObject() query?: Record<string, unknown>;
  @IsOptional() @IsArray() @IsString({ each: true }) ignoreRegexWrap?: string[];
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) offset?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) visiblePages?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) page?: number;
  @IsOptional() @IsString() sortName?: string;
  @IsOptional() @IsIn(['ASC', 'DESC', 'asc', 'desc']) sortDirection?: string;
}
