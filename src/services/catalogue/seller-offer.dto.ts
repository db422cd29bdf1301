import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsMongoId,
  IsOptional,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/** Optional, but never `null` (which `@IsOptional` lets through, and which would clear a required field). */
const Absent = () => ValidateIf((_, value) => value !== undefined);

/** Largest price (minor units) and stock figure accepted: far above any plant, far below 2^53. */
const MAX_AMOUNT = 1_000_000_000;
const CURRENCY = /^[A-Z]{3}$/;
const CURRENCY_MESSAGE = 'currency must be an ISO 4217 code of three capital letters';

/** Query-string numbers: only text of digits becomes a number, so anything else (an object, `1e3`) fails as 400. */
const digitsToNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

export class WarehouseStockDto {
  @IsMongoId() warehouseId!: string;
  @IsInt() @Min(0) @Max(MAX_AMOUNT) quantity!: number;
}

/** A new offer; `sellerId` only for an ADMIN (a seller offers as their own seller). */
export class CreateOfferDto {
  @Absent() @IsMongoId() sellerId?: string;
  @IsMongoId() skuId!: string;
  @IsInt() @Min(0) @Max(MAX_AMOUNT) price!: number;
  @Matches(CURRENCY, { message: CURRENCY_MESSAGE }) currency!: string;
  @Absent() @IsBoolean() active?: boolean;
  @Absent()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => WarehouseStockDto)
  stock?: WarehouseStockDto[];
}

export class UpdateOfferDto {
  @Absent() @IsInt() @Min(0) @Max(MAX_AMOUNT) price?: number;
  @Absent() @Matches(CURRENCY, { message: CURRENCY_MESSAGE }) currency?: string;
  @Absent() @IsBoolean() active?: boolean;
}

export class SetStockDto {
  @IsInt() @Min(0) @Max(MAX_AMOUNT) quantity!: number;
}

export class AdjustStockDto {
  @IsInt() @Min(-MAX_AMOUNT) @Max(MAX_AMOUNT) delta!: number;
}

/** Paging of DESIGN §6: `page` 0-based, `limit` 1..200 (default 20). */
export class OfferPageQueryDto {
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(0) page = 0;
  @IsOptional() @Transform(digitsToNumber) @IsInt() @Min(1) @Max(200) limit = 20;
}
