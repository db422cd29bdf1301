/** The money parts of an order that accounting needs; integer minor units, rates in percent. */
export interface OrderMoney {
  subtotal: number;
  tax: number;
  total: number;
  /** The marketplace's commission rate, frozen on the order at checkout (ORDER_SERVICE_FEE_RATE). */
  serviceTaxRate: number;
  /** VAT on invoices addressed to the seller. */
  sellerTaxRate: number;
  /** Given back to the buyer by confirmed refunds (0 when none). */
  refunded: number;
}

export interface Settlement {
  /** `round(subtotal × serviceTaxRate / 100)`. */
  commission: number;
  /** `round(commission × sellerTaxRate / 100)`. */
  commissionTax: number;
  commissionTotal: number;
  /** What the seller receives: the total the buyer paid, less refunds, less the commission with its VAT. */
  payout: number;
}

/**
 * Commission and payout of an order; rounding half away from zero, once per amount, as invoices show them. The
 * commission stays on the goods as sold: a refund comes out of the seller's payout, not the marketplace's fee.
 */
export function settlementOf(order: OrderMoney): Settlement {
  const commission = Math.round((order.subtotal * order.serviceTaxRate) / 100);
  const commissionTax = Math.round((commission * order.sellerTaxRate) / 100);
  const commissionTotal = commission + commissionTax;
  return { commission, commissionTax, commissionTotal, payout: order.total - order.refunded - commissionTotal };
}
