import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsMongoId,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export class AttributeValueDto {
  @IsMongoId() attributeId!: string;
  @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) values!: string[];
}

/** A new product (plant) as an ADMIN creates it. */
export class CreateProductDto {
  @IsString() @IsNotEmpty() @MaxLength(200) name!: string;
  @IsOptional() @IsString() @MaxLength(5000) description?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) images?: string[];
  @IsOptional() @IsArray() @IsString({ each: true }) categories?: string[];
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AttributeValueDto)
  attributes?: AttributeValueDto[];
  @IsOptional() @IsString() @MaxLength(60) geneticType?: string;
  @IsOptional()
  @Matches(/^[A-Za-z]{2}$/, { message: 'countryOfOrigin must be an ISO 3166-1 alpha-2 code' })
  countryOfOrigin?: string;
  @IsOptional() @IsBoolean() published?: boolean;
}
