import { ArrayMaxSize, IsArray, IsEnum, IsInt, IsISO8601, IsMongoId, IsOptional, Max, Min } from 'class-validator';
import { OrderStatus } from './order-status';

/** DESIGN §6: page sizes are at most 200. */
export const MAX_DESK_PAGE_SIZE = 200;

/**
 * The map of `getSellerOrdersPaged`: the seller's orders, newest first, optionally of some statuses and created in
 * `[from, to)` (ISO-8601 instants). `sellerId` names the seller for an ADMIN; a USER acts for their own seller.
 */
export class SellerOrdersRequestDto {
  @IsOptional() @IsMongoId() sellerId?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(Object.values(OrderStatus).length)
  @IsEnum(OrderStatus, { each: true })
  status?: OrderStatus[];
  /** ISO-8601 instants as strings; a number, an object or an impossible date is a 400. */
  @IsOptional() @IsISO8601({ strict: true }) from?: string;
  @IsOptional() @IsISO8601({ strict: true }) to?: string;
  @IsInt() @Min(0) @Max(10_000) page: number = 0;
  @IsInt() @Min(1) @Max(MAX_DESK_PAGE_SIZE) size: number = 20;
}
