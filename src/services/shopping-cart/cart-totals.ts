import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { parcelWeight, ShippingQuotes } from '../delivery/shipping-quotes';
import { AddressBook } from '../geolocation/address-book';
import { orderTotals } from '../orders/order-amounts';
import {
  CartContents,
  CartItemView,
  SellerCartView,
  SellerCartWithTotals,
  SellerTotalsView,
  ShoppingCartView,
  sumByCurrency,
} from './cart.view';

export const NO_ADDRESS_NOTE = 'No default shipping address: shipping is quoted at checkout';

/**
 * Estimates what checkout would charge: one order per seller and currency, shipped to the buyer's default address
 * at the logistics provider's rate, with VAT and the service fee at the configured rates (as checkout sets them).
 */
@Injectable()
export class CartTotals {
  constructor(
    private readonly addressBook: AddressBook,
    private readonly quotes: ShippingQuotes,
    private readonly config: AppConfig,
  ) {}

  async of(cart: CartContents): Promise<ShoppingCartView> {
    const address = await this.addressBook.defaultShippingOf(cart.buyerId);
    const country = address?.country;
    const sellers = await Promise.all(cart.sellers.map((seller) => this.withBreakdown(seller, country)));
    const totals = sellers.flatMap((seller) => seller.breakdown.map(({ currency, total }) => ({ currency, total })));
    return {
      ...cart,
      sellers,
      shippingAddressId: address?.id ?? null,
      shippingCountry: country ?? null,
      grandTotals: sumByCurrency(totals),
    };
  }

  private async withBreakdown(seller: SellerCartView, country: string | undefined): Promise<SellerCartWithTotals> {
    const byCurrency = new Map<string, CartItemView[]>();
    for (const item of seller.items) byCurrency.set(item.currency, [...(byCurrency.get(item.currency) ?? []), item]);
    const breakdown = await Promise.all(
      [...byCurrency].map(([currency, items]) => this.estimate(seller, currency, items, country)),
    );
    return { ...seller, breakdown };
  }

  private async estimate(
    seller: SellerCartView,
    currency: string,
    items: CartItemView[],
    country: string | undefined,
  ): Promise<SellerTotalsView> {
    const goods = items.reduce((sum, item) => sum + item.total, 0);
    const weightGrams = parcelWeight(items);
    const quote = country
      ? await this.quotes.quote({ sellerId: seller.sellerId, toCountry: country, weightGrams, currency })
      : undefined;
    const { taxPercent, serviceFeePercent } = this.config.orderRates;
    const totals = orderTotals({
      goods,
      shipping: quote?.amount ?? null,
      buyerTaxRate: taxPercent,
      serviceTaxRate: serviceFeePercent,
    });
    return { currency, ...totals, shippingNote: noteOf(seller, country, quote !== undefined) };
  }
}

function noteOf(seller: SellerCartView, country: string | undefined, quoted: boolean): string | null {
  if (!country) return NO_ADDRESS_NOTE;
  return quoted ? null : `Seller "${seller.sellerName}" does not ship to ${country}`;
}
