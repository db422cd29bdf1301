import { IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** The Address map of `createAddress`, `saveAddress` and `addShippingAddress`. */
export class AddressDto {
  @IsOptional() @IsString() id?: string;
  @IsOptional() @IsString() @MaxLength(20) houseNumber?: string;
  @IsString() @IsNotEmpty() @MaxLength(200) street!: string;
  @IsString() @IsNotEmpty() @MaxLength(100) city!: string;
  @IsString() @IsNotEmpty() @MaxLength(20) postalCode!: string;
  /** Alpha-2, alpha-3 or numeric ISO 3166 code, or the country's name in the request language. */
  @IsString() @IsNotEmpty() @MaxLength(60) country!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) @MaxLength(64, { each: true }) fallIntoObjects?: string[];
}
