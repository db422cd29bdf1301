import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsMongoId,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export const LISTING_SORTS = ['price', '-price', 'name', '-name', 'newest'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

export const MAX_PAGE_SIZE = 100;
/** Deep pages cost a skip over every row before them; a storefront never pages that far. */
export const MAX_PAGE = 10_000;
export const MAX_TEXT_QUERY = 200;

/**
 * One attribute filter: the product (or the SKU of its offer) has at least one of `values` for the attribute, as
 * `getDynamicOptionFilters` / `getDynamicValueFilters` list them (`attributeId` from `getDynamicFilters`).
 */
export class AttributeFilterDto {
  @IsMongoId() attributeId!: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(200, { each: true }) values!: string[];
}

/** Input of `listProducts`: every field optional; prices in integer minor units of `currency`. */
export class ProductListingQueryDto {
  @IsOptional() @IsString() @MaxLength(MAX_TEXT_QUERY) q?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => AttributeFilterDto)
  filters?: AttributeFilterDto[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  categories?: string[];

  @IsOptional() @IsInt() @Min(0) minPrice?: number;
  @IsOptional() @IsInt() @Min(0) maxPrice?: number;

  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in capitals, such as EUR' })
  currency?: string;

  @IsOptional() @IsIn(LISTING_SORTS) sort?: ListingSort;

  @IsInt() @Min(0) @Max(MAX_PAGE) page = 0;
  @IsInt() @Min(1) @Max(MAX_PAGE_SIZE) size = 20;
}
