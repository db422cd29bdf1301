import { Injectable } from '@nestjs/common';
import { SellerAddresses } from '../geolocation/seller-addresses';
import { LogisticsProvider, Rate } from './logistics.provider';

/** The weight assumed for one item whose SKU has no `weightGrams`. */
export const DEFAULT_ITEM_WEIGHT_GRAMS = 500;

/** A parcel's price as quoted by the logistics provider: what an order's `shipping` line holds. */
export interface ShippingQuote {
  service: Rate['service'];
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  estimatedDays: number;
  /** ISO 3166-1 alpha-2: the seller's warehouse country and the destination. */
  fromCountry: string;
  toCountry: string;
  weightGrams: number;
}

export interface QuoteRequest {
  sellerId: string;
  toCountry: string;
  weightGrams: number;
  currency: string;
}

/** The weight of items: each item's SKU weight, or {@link DEFAULT_ITEM_WEIGHT_GRAMS}, times its quantity. */
export function parcelWeight(items: { weightGrams?: number; quantity: number }[]): number {
  return items.reduce((sum, item) => sum + (item.weightGrams ?? DEFAULT_ITEM_WEIGHT_GRAMS) * item.quantity, 0);
}

/** Shipping prices for sellers' parcels: the provider's cheapest rate from the seller's warehouse country. */
@Injectable()
export class ShippingQuotes {
  constructor(
    private readonly logistics: LogisticsProvider,
    private readonly sellerAddresses: SellerAddresses,
  ) {}

  /** The cheapest rate in `currency`; undefined when the provider does not serve the route. */
  async quote({ sellerId, toCountry, weightGrams, currency }: QuoteRequest): Promise<ShippingQuote | undefined> {
    const fromCountry = await this.sellerAddresses.warehouseCountry(sellerId);
    const to = toCountry.toUpperCase();
    const rates = await this.logistics.rates({ fromCountry, toCountry: to, weightGrams, currency });
    const usable = rates.filter((rate) => rate.currency === currency);
    if (usable.length === 0) return undefined;
    const cheapest = usable.reduce((best, rate) => (rate.amount < best.amount ? rate : best));
    const { service, amount, estimatedDays } = cheapest;
    return { service, amount, currency, estimatedDays, fromCountry, toCountry: to, weightGrams };
  }
}
