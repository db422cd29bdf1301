import { Injectable } from '@nestjs/common';
import { OrderEvent } from '../../events/domain-event-map';
import { OnDomainEvent } from '../../events/domain-events';
import { BuyerInvoice } from '../orders/buyer-invoice';

/**
 * Issues an order's buyer-to-vendor invoice as soon as it is paid, with no admin in the loop. Issuing is idempotent
 * (one invoice per order, by a unique index), so a redelivered `order.paid` or two instances settling the same
 * payment still give one invoice; a failure leaves the order marked and the retry sweep emits the event again.
 */
@Injectable()
export class InvoiceOnPayment {
  constructor(private readonly buyerInvoice: BuyerInvoice) {}

  @OnDomainEvent('order.paid')
  async issue({ order }: OrderEvent): Promise<void> {
    await this.buyerInvoice.create(order);
  }
}
