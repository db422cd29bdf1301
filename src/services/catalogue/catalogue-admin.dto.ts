import { BadRequestException } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEnum,
  IsInt,
  IsMongoId,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AttributeType } from './attribute-type';
import { AttributeValueDto } from './product.dto';

/** Optional, but never `null` (which `@IsOptional` lets through, and which would clear a required field). */
const Absent = () => ValidateIf((_, value) => value !== undefined);

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Names are stored trimmed and required: one of spaces only would fail in the database instead of here. */
const NOT_BLANK = /\S/;
const notBlank = (field: string) => Matches(NOT_BLANK, { message: `${field} must not be blank` });
const LANG = /^[a-z]{2,3}$/;
const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

/** A category: `parentId` absent or `null` makes a root; `position` orders it among its siblings. */
export class CreateCategoryDto {
  @IsString() @notBlank('name') @MaxLength(100) name!: string;
  @ValidateIf((_, value) => value !== undefined && value !== null) @IsMongoId() parentId?: string | null;
  @Absent() @IsInt() @Min(0) @Max(10_000) position?: number;
}

/** A rename, a move (`parentId`; `null` moves it to the roots) or a new position. */
export class UpdateCategoryDto {
  @Absent() @IsString() @notBlank('name') @MaxLength(100) name?: string;
  @ValidateIf((_, value) => value !== undefined && value !== null) @IsMongoId() parentId?: string | null;
  @Absent() @IsInt() @Min(0) @Max(10_000) position?: number;
}

export class CreateAttributeDto {
  @Matches(CODE, { message: 'code must be 1-80 letters, digits, ".", "_" or "-", starting with a letter or digit' })
  code!: string;
  @IsString() @notBlank('name') @MaxLength(100) name!: string;
  @IsEnum(AttributeType) type!: AttributeType;
  @Absent() @IsString() @MaxLength(20) unit?: string;
}

/** The code and type stay: products, SKUs and storefront filters refer to them. */
export class UpdateAttributeDto {
  @Absent() @IsString() @notBlank('name') @MaxLength(100) name?: string;
  @Absent() @IsString() @MaxLength(20) unit?: string;
}

/** A product's name and description in one language (`lang`: a primary language subtag such as `de`). */
export class ProductTranslationDto {
  @Matches(LANG, { message: 'lang must be a language code of 2 or 3 lower-case letters' }) lang!: string;
  @IsString() @notBlank('name') @MaxLength(200) name!: string;
  @Absent() @IsString() @MaxLength(5000) description?: string;
}

/** Property decorators applied in order (class-validator's are plain property decorators). */
function all(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}

const NAME = () => all(IsString(), notBlank('name'), MaxLength(200));
const IMAGES = () => all(IsArray(), ArrayMaxSize(20), IsString({ each: true }), MaxLength(500, { each: true }));
const CATEGORY_IDS = () => all(IsArray(), ArrayMaxSize(20), IsMongoId({ each: true }));
const ATTRIBUTE_VALUES = () =>
  all(
    IsArray(),
    ArrayMaxSize(50),
    ValidateNested({ each: true }),
    Type(() => AttributeValueDto),
  );
const COUNTRY = () => Matches(/^[A-Za-z]{2}$/, { message: 'countryOfOrigin must be an ISO 3166-1 alpha-2 code' });
const TRANSLATIONS = () =>
  all(
    IsArray(),
    ArrayMaxSize(50),
    ValidateNested({ each: true }),
    Type(() => ProductTranslationDto),
  );
const SLUG_FIELD = () =>
  all(IsString(), MaxLength(120), Matches(SLUG, { message: 'slug must be lower-case words joined by "-"' }));
const SKU_CODE = () => Matches(CODE, { message: 'code must be 1-80 letters, digits, ".", "_" or "-"' });
const WEIGHT = () => all(IsInt(), Min(1), Max(1_000_000));

/** A new product: a draft unless `published` is true. */
export class CreateProductAdminDto {
  @NAME() name!: string;
  @Absent() @IsString() @MaxLength(5000) description?: string;
  @Absent() @IMAGES() images?: string[];
  /** Ids of categories of the tree. */
  @Absent() @CATEGORY_IDS() categories?: string[];
  @Absent() @ATTRIBUTE_VALUES() attributes?: AttributeValueDto[];
  @Absent() @IsString() @MaxLength(60) geneticType?: string;
  @Absent() @COUNTRY() countryOfOrigin?: string;
  /** One per language. */
  @Absent() @TRANSLATIONS() translations?: ProductTranslationDto[];
  @Absent() @SLUG_FIELD() slug?: string;
  @Absent() @IsBoolean() published?: boolean;
}

/** Changes to a product: each absent field stays as it is; `translations` replaces them all. */
export class UpdateProductDto {
  @Absent() @NAME() name?: string;
  @Absent() @IsString() @MaxLength(5000) description?: string;
  @Absent() @IMAGES() images?: string[];
  @Absent() @CATEGORY_IDS() categories?: string[];
  @Absent() @ATTRIBUTE_VALUES() attributes?: AttributeValueDto[];
  @Absent() @IsString() @MaxLength(60) geneticType?: string;
  @Absent() @COUNTRY() countryOfOrigin?: string;
  @Absent() @TRANSLATIONS() translations?: ProductTranslationDto[];
  @Absent() @SLUG_FIELD() slug?: string;
}

/** A new SKU (variant) of an existing product; `code` is unique across the catalogue. */
export class CreateSkuDto {
  @IsMongoId() productId!: string;
  @SKU_CODE() code!: string;
  @NAME() name!: string;
  @Absent() @ATTRIBUTE_VALUES() attributes?: AttributeValueDto[];
  @Absent() @WEIGHT() weightGrams?: number;
}

/** Changes to a SKU; its product stays (offers and orders refer to both). */
export class UpdateSkuDto {
  @Absent() @SKU_CODE() code?: string;
  @Absent() @NAME() name?: string;
  @Absent() @ATTRIBUTE_VALUES() attributes?: AttributeValueDto[];
  @Absent() @WEIGHT() weightGrams?: number;
}

/** 400 for a change that changes nothing (an empty map, or one of undeclared fields only, which are dropped). */
export function requireChange(change: object): void {
  if (Object.values(change).every((value) => value === undefined)) {
    throw new BadRequestException('Give at least one field to change');
  }
}
