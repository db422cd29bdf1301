import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsMongoId,
  IsOptional,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_ITEM_QUANTITY } from './order.dto';

/** Units of one bought line to refund. */
export class RefundItemDto {
  @IsMongoId() sellerSkuId!: string;
  @IsInt() @Min(1) @Max(MAX_ITEM_QUANTITY) quantity!: number;
}

/**
 * The map of `refundOrder`: the whole order (what is left of it) without `items`, else these units. `restock` says
 * whether the units return to the offers once refunded; by default they do before shipment and do not after.
 */
export class RefundRequestDto {
  @IsMongoId() orderId!: string;
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => RefundItemDto)
  items?: RefundItemDto[];
  @IsOptional() @IsBoolean() restock?: boolean;
}
