import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsMongoId, Max, Min, ValidateNested } from 'class-validator';

export const MAX_LINE_QUANTITY = 10_000;

/** The `data` map of `addCommerceItem(data)`: which offer and how many (default 1). */
export class AddCartItemDto {
  @IsMongoId() sellerSkuId!: string;
  @IsInt() @Min(1) @Max(MAX_LINE_QUANTITY) quantity: number = 1;
}

/** The `data` map of `addCommerceItems(data)`; applied all or nothing. */
export class AddCartItemsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AddCartItemDto)
  items!: AddCartItemDto[];
}
