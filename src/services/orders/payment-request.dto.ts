import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsInt,
  IsMongoId,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  ValidateBy,
} from 'class-validator';
import { MAX_ITEM_QUANTITY, OrderItemDto, ShippingAddressDto } from './order.dto';
import { MAX_RETURN_URL_LENGTH } from './payment-return-url';

const METADATA_KEY = /^[A-Za-z0-9_-]{1,40}$/;
const MAX_METADATA_ENTRIES = 20;

const isShortText = (text: unknown): boolean => typeof text === 'string' && text.length <= 500;

/** Flat `{key: text}` metadata, as card providers accept it: no nesting, no `$` or `.` in keys. */
function IsMetadata(): PropertyDecorator {
  return ValidateBy({
    name: 'isMetadata',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.keys(value).length <= MAX_METADATA_ENTRIES &&
        Object.entries(value).every(([key, text]) => METADATA_KEY.test(key) && isShortText(text)),
      defaultMessage: () =>
        `metadata must be at most ${MAX_METADATA_ENTRIES} entries of letters, digits, "_" or "-" keys and text values`,
    },
  });
}

/**
 * The payment request of `digitalOrderCheckout`. With `orderId` it selects the card (`paymentMethodId`) for the
 * buyer's existing order; without, it creates an order of `commerceItems` directly (no cart). `confirm: true`
 * also charges at once. An item without its own quantity takes `quantity`, or 1 while that is 0 (its default).
 * `amount`, when above 0 (its default), must equal the order's total: the price the buyer saw.
 */
export class PaymentRequestDto {
  @IsOptional() @IsMongoId() orderId?: string;
  @IsOptional() @IsString() @MaxLength(64) paymentMethodId?: string;
  /** Kept for the spec's shape; a payment intent is created by `pay`, never chosen by the client. */
  @IsOptional() @IsString() @MaxLength(64) paymentIntentId?: string;
  @IsOptional() @IsString() @MaxLength(64) toAccountId?: string;
  @IsOptional() @IsString() @MaxLength(500) description?: string;
  @IsOptional() @Matches(/^[A-Za-z]{3}$/, { message: 'currencyCode must be an ISO 4217 code' }) currencyCode?: string;
  @IsOptional() @IsEmail() email?: string;
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => OrderItemDto)
  commerceItems?: OrderItemDto[];
  @IsOptional() @ValidateNested() @Type(() => ShippingAddressDto) shippingAddress?: ShippingAddressDto;
  @IsOptional() @IsMetadata() metadata?: Record<string, string>;
  /** Where the 3-D Secure page sends the buyer back (`PaymentReturnUrls` checks the origin); `PUBLIC_URL` unset. */
  @IsOptional() @IsString() @MaxLength(MAX_RETURN_URL_LENGTH) returnUrl?: string;
  @IsInt() @Min(0) @Max(MAX_ITEM_QUANTITY) quantity: number = 0;
  @IsInt() @Min(0) amount: number = 0;
  @IsBoolean() confirm: boolean = false;
}
