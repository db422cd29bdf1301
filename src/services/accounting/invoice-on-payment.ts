import { Injectable, OnModuleInit } from '@nestjs/common';
import { BuyerInvoice } from '../orders/buyer-invoice';
import { OrderPaidHook } from '../orders/order-paid-hook';

/**
 * Issues an order's buyer-to-vendor invoice as soon as it is paid, with no admin in the loop. Issuing is idempotent
 * (one invoice per order, by a unique index), so a retried webhook or two instances settling the same payment
 * still give one invoice.
 */
@Injectable()
export class InvoiceOnPayment implements OnModuleInit {
  constructor(
    private readonly hook: OrderPaidHook,
    private readonly buyerInvoice: BuyerInvoice,
  ) {}

  onModuleInit(): void {
    this.hook.onPaid((order) => this.buyerInvoice.create(order));
  }
}
