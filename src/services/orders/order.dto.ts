import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsEnum,
  IsInt,
  IsMongoId,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { OrderStatus } from './order-status';

export const MAX_ITEM_QUANTITY = 10_000;
const MAX_ITEMS = 100;

/** A line to order: which offer (seller SKU) and how many. */
export class OrderItemDto {
  @IsMongoId() sellerSkuId!: string;
  @IsOptional() @IsInt() @Min(1) @Max(MAX_ITEM_QUANTITY) quantity?: number;
}

export class EmbeddedBuyerDto {
  @IsString() @Length(1, 64) userId!: string;
  @IsString() @Length(1, 128) username!: string;
  @IsOptional() @IsEmail() email?: string;
}

export class ShippingAddressDto {
  @IsOptional() @IsString() @MaxLength(200) name?: string;
  @IsOptional() @IsString() @MaxLength(200) street?: string;
  @IsOptional() @IsString() @MaxLength(20) houseNumber?: string;
  @IsOptional() @IsString() @MaxLength(100) city?: string;
  @IsOptional() @IsString() @MaxLength(20) postalCode?: string;
  @IsOptional() @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
  @IsOptional() @IsString() @MaxLength(64) pickupPointId?: string;
}

export class PackageItemDto {
  @IsOptional() @IsInt() @Min(0) @Max(1_000_000) weightGrams?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1000) lengthCm?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1000) widthCm?: number;
  @IsOptional() @IsInt() @Min(0) @Max(1000) heightCm?: number;
}

/**
 * The order map of `createOrder` / `saveOrder` (ADMIN). Vendor, currency, amounts and time line are derived from
 * the items and the lifecycle, never taken from the map; `status` in `saveOrder` must be a legal transition.
 */
export class OrderDto {
  @IsOptional() @IsMongoId() id?: string;
  @IsOptional() @IsEnum(OrderStatus) status?: OrderStatus;
  @IsOptional() @IsString() @MaxLength(64) contactProfileId?: string;
  @IsOptional() @ValidateNested() @Type(() => EmbeddedBuyerDto) embeddedBuyer?: EmbeddedBuyerDto;
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  commerceItems?: OrderItemDto[];
  @IsOptional() @IsString() @MaxLength(8) currencySymbol?: string;
  @IsOptional() @ValidateNested() @Type(() => PackageItemDto) packageItem?: PackageItemDto;
  @IsOptional() @ValidateNested() @Type(() => ShippingAddressDto) shippingAddress?: ShippingAddressDto;
  @IsOptional() @IsString() @MaxLength(64) paymentMethodId?: string;
  @IsOptional() @IsString() @MaxLength(64) payoutId?: string;
  @IsOptional() @IsNumber() @Min(0) @Max(100) sellerTaxRate?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(100) buyerTaxRate?: number;
  @IsOptional() @IsNumber() @Min(0) @Max(100) serviceTaxRate?: number;
}
