import { Type } from 'class-transformer';
import {
  IsEnum,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { PackageItemDto, ShippingAddressDto } from '../orders/order.dto';
import { ParcelStatus } from './logistics.provider';

const COUNTRY = /^[A-Za-z]{2}$/;
const COUNTRY_MESSAGE = 'must be an ISO 3166-1 alpha-2 code';

export class PickupPointQueryDto {
  @Matches(COUNTRY, { message: `country ${COUNTRY_MESSAGE}` }) country!: string;
  @IsOptional() @Matches(/^[A-Za-z0-9 -]{1,12}$/, { message: 'postalCode must be a postal code' }) postalCode?: string;
}

export class RateRequestDto {
  @Matches(COUNTRY, { message: `fromCountry ${COUNTRY_MESSAGE}` }) fromCountry!: string;
  @Matches(COUNTRY, { message: `toCountry ${COUNTRY_MESSAGE}` }) toCountry!: string;
  @IsInt() @Min(1) @Max(1_000_000) weightGrams!: number;
  @IsOptional() @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be an ISO 4217 code' }) currency?: string;
}

export class ParcelRequestDto {
  @IsString() @Length(1, 64) reference!: string;
  @IsObject() @ValidateNested() @Type(() => ShippingAddressDto) address!: ShippingAddressDto;
  @IsOptional() @ValidateNested() @Type(() => PackageItemDto) package?: PackageItemDto;
}

export class ParcelScanDto {
  @IsEnum([ParcelStatus.PICKED_UP, ParcelStatus.DELIVERED]) status!: ParcelStatus.PICKED_UP | ParcelStatus.DELIVERED;
}
