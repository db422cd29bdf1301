import { Type } from 'class-transformer';
import {
  IsMongoId,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/** A street address given at checkout: what the logistics provider needs to deliver the parcel. */
export class CheckoutAddressDto {
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @IsString() @IsNotEmpty() @MaxLength(200) street!: string;
  @IsOptional() @IsString() @MaxLength(20) houseNumber?: string;
  @IsString() @IsNotEmpty() @MaxLength(20) postalCode!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) city!: string;
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country!: string;
}

/** Exactly one of `addressId` and `address`. */
function OneDestination(): PropertyDecorator {
  return ValidateBy({
    name: 'oneDestination',
    validator: {
      validate: (_value: unknown, args) => {
        const { addressId, address } = (args?.object ?? {}) as CheckoutDto;
        return (addressId === undefined) !== (address === undefined);
      },
      defaultMessage: () => 'give exactly one of addressId and address',
    },
  });
}

/**
 * The map of `orderCheckoutTo`: where the cart's orders go. `addressId` names one of the caller's own addresses
 * (geoLocationServiceImpl); `address` is given inline and kept on the orders only.
 */
export class CheckoutDto {
  /** Checked while there is an addressId or nothing at all, so "neither" and "both" are refused alike. */
  @ValidateIf((dto: CheckoutDto) => dto.addressId !== undefined || dto.address === undefined)
  @OneDestination()
  @IsMongoId()
  addressId?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => CheckoutAddressDto) address?: CheckoutAddressDto;
}
