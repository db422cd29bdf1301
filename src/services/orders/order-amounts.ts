/** An order's money, integer minor units of its currency (the cart shows the same per seller). */
export interface OrderTotals {
  /** The items' total (`subtotal`). */
  goods: number;
  /** The parcel's price; null in a cart while it cannot be quoted (no default address, or no rate). */
  shipping: number | null;
  /** VAT at `buyerTaxRate` on goods and shipping. */
  tax: number;
  /** The marketplace's service fee on the goods; borne by the seller (taken from the payout), not added to total. */
  fees: number;
  /** What the buyer pays: goods + shipping + tax. */
  total: number;
}

export interface TotalsInput {
  goods: number;
  shipping: number | null;
  buyerTaxRate: number;
  serviceTaxRate: number;
}

/**
 * The buyer pays goods, shipping and VAT on both (shipping follows the VAT rate of the goods it carries), rounded
 * half up once per amount. The service fee is the commission accounting deducts from the seller's payout.
 */
export function orderTotals({ goods, shipping, buyerTaxRate, serviceTaxRate }: TotalsInput): OrderTotals {
  const taxed = goods + (shipping ?? 0);
  const tax = Math.round((taxed * buyerTaxRate) / 100);
  const fees = Math.round((goods * serviceTaxRate) / 100);
  return { goods, shipping, tax, fees, total: taxed + tax };
}

/** What has been given back to the buyer: the refunds the provider confirmed. */
export function refundedAmount(order: { refunds?: { amount: number; status: string }[] }): number {
  return (order.refunds ?? [])
    .filter((refund) => refund.status === 'SUCCEEDED')
    .reduce((sum, refund) => sum + refund.amount, 0);
}
