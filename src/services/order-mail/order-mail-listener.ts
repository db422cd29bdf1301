import { Injectable, Logger } from '@nestjs/common';
import { UserAccounts } from '../../auth/users/user-accounts';
import { OrderEvent } from '../../events/domain-event-map';
import { OnDomainEvent } from '../../events/domain-events';
import { StoredOrder } from '../orders/order.view';
import { DEFAULT_MAIL_LANG, mailLanguage } from './order-mail-templates';
import { OrderMailKind } from './order-mail.schema';
import { OrderMailOutbox } from './order-mail-outbox';

/**
 * Queues the mails of order events in the outbox: the buyer hears of every step, the seller of a paid order to ship.
 * A failure to queue reaches the emitter: for `order.paid` the order stays marked and the event comes again.
 */
@Injectable()
export class OrderMailListener {
  private readonly logger = new Logger(OrderMailListener.name);

  constructor(
    private readonly outbox: OrderMailOutbox,
    private readonly users: UserAccounts,
  ) {}

  @OnDomainEvent('order.placed')
  async placed({ order }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.PLACED);
  }

  @OnDomainEvent('order.paid')
  async paid({ order }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.PAID);
    await this.toSeller(order, OrderMailKind.SELLER_PAID);
  }

  @OnDomainEvent('order.shipped')
  async shipped({ order }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.SHIPPED);
  }

  @OnDomainEvent('order.delivered')
  async delivered({ order }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.DELIVERED);
  }

  @OnDomainEvent('order.canceled')
  async canceled({ order, entry }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.CANCELED, entry.refundId);
  }

  @OnDomainEvent('order.refunded')
  async refunded({ order, entry }: OrderEvent): Promise<void> {
    await this.toBuyer(order, OrderMailKind.REFUNDED, entry.refundId);
  }

  /** To the address given at checkout, else the buyer's account's; in the order's language. */
  private async toBuyer(order: StoredOrder, kind: OrderMailKind, refundId?: string): Promise<void> {
    const to = order.embeddedBuyer.email ?? (await this.users.emailOf(order.embeddedBuyer.userId));
    await this.queue(order, kind, to, mailLanguage(order.lang), refundId);
  }

  /** To the account acting for the seller, in English: sellers have no language of their own yet. */
  private async toSeller(order: StoredOrder, kind: OrderMailKind): Promise<void> {
    const { userId } = order.embeddedVendor;
    const to = userId ? await this.users.emailOf(userId) : undefined;
    await this.queue(order, kind, to, DEFAULT_MAIL_LANG);
  }

  private async queue(
    order: StoredOrder,
    kind: OrderMailKind,
    to: string | undefined,
    lang: string,
    refundId?: string,
  ): Promise<void> {
    const orderId = String(order._id);
    if (!to) {
      this.logger.warn(`No address for the ${kind} mail of order ${orderId}: not sent`);
      return;
    }
    // A canceled order is canceled once; only refunds (several per order) need their own key.
    const key = [orderId, kind, kind === OrderMailKind.REFUNDED ? refundId : undefined].filter(Boolean).join(':');
    await this.outbox.enqueue({ key, kind, orderId, to, lang, ...(refundId ? { refundId } : {}) });
  }
}
