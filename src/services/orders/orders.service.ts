import { UnauthorizedException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { describeRepository, RepositoryDescription } from '../../common/mongo/repository-description';
import { Page, toPage } from '../../common/page';
import { Principal, Role } from '../../common/principal';
import { AuditTrail } from '../../audit/audit-trail';
import { RequestContext } from '../../common/request-context';
import {
  parseSearchRequest,
  planSearch,
  runSearch,
  runSearchWindow,
  SearchPlan,
  toPipeline,
} from '../../common/search';
import { PaymentStatus } from '../payments';
import { Attachment, BuyerInvoice } from './buyer-invoice';
import { OrderAdmin } from './order-admin';
import { CheckoutDto } from './checkout.dto';
import { OrderCancellation } from './order-cancellation';
import { OrderCheckout } from './order-checkout';
import { OrderPayments } from './order-payments';
import { OrderRefunds } from './order-refunds';
import { ORDER_SEARCH } from './order-search';
import { OrderShipping } from './order-shipping';
import { OrderRepository } from './order.repository';
import { SellerOrderDesk } from './seller-order-desk';
import { SellerOrdersRequestDto } from './seller-orders.dto';
import { OrderTransitions } from './order-transitions';
import { Order, OrderStatus } from './order.schema';
import { OrderDto } from './order.dto';
import { OrderView, StoredOrder, toOrderView } from './order.view';
import { PaymentRequestDto } from './payment-request.dto';
import { RefundRequestDto } from './refund-request.dto';

/**
 * `orderServiceImpl`, "conditional for USER/ADMIN" (DESIGN §2): the buyer methods are exposed at GUEST level,
 * answer `null` to a guest and act on the caller's own orders (an ADMIN's on anyone's); the rest needs ADMIN.
 * Lifecycle in `order-lifecycle.ts`; the work is done by the collaborators below, this class only maps the spec.
 */
@Bean('orderServiceImpl', Role.ADMIN)
export class OrdersService {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    private readonly store: OrderRepository,
    private readonly checkout: OrderCheckout,
    private readonly payments: OrderPayments,
    private readonly shipping: OrderShipping,
    private readonly admin: OrderAdmin,
    private readonly transitions: OrderTransitions,
    private readonly invoice: BuyerInvoice,
    private readonly cancellation: OrderCancellation,
    private readonly refunds: OrderRefunds,
    private readonly desk: SellerOrderDesk,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Settles PAYMENT_PENDING orders and PENDING refunds the provider has decided (webhooks that never arrived).
   */
  @Exposed()
  async handleNotify(): Promise<void> {
    await this.payments.reconcile();
    await this.refunds.reconcile();
  }

  @Exposed()
  getRepository(): Promise<RepositoryDescription> {
    return describeRepository('OrderRepository', this.orders);
  }

  /** Commerce items are embedded in their orders; the count is over all orders. */
  @Exposed()
  getCommerceItemRepository(): Promise<RepositoryDescription> {
    const count = () => this.countCommerceItems();
    return describeRepository('CommerceItemRepository', this.orders, { entity: 'CommerceItem', count });
  }

  private async countCommerceItems(): Promise<number> {
    const [counted] = await this.orders
      .aggregate<{ count: number }>([
        { $project: { n: { $size: '$commerceItems' } } },
        { $group: { _id: null, count: { $sum: '$n' } } },
      ])
      .exec();
    return counted?.count ?? 0;
  }

  @Exposed([], { role: Role.GUEST })
  activeLogisticsProvider(): string | null {
    return RequestContext.principal() ? this.shipping.providerName : null;
  }

  @Exposed([], { role: Role.GUEST })
  activePaymentProvider(): string | null {
    return RequestContext.principal() ? this.payments.providerName : null;
  }

  @Exposed(['String'])
  getPaginationFilter(requestJson: string): PipelineStage[] {
    return toPipeline(plan(requestJson));
  }

  @Exposed(['String'])
  async getOrders(requestJson: string): Promise<OrderView[]> {
    return (await runSearchWindow<StoredOrder>(this.orders, plan(requestJson))).map(toOrderView);
  }

  @Exposed(['String'])
  async getOrdersPaged(requestJson: string): Promise<Page<OrderView>> {
    const searchPlan = plan(requestJson);
    const { content, total } = await this.search(searchPlan);
    return toPage(content, total, searchPlan.page, searchPlan.limit);
  }

  @Exposed([MapOf(OrderDto)])
  async createOrder(order: OrderDto): Promise<OrderView> {
    return toOrderView(await this.admin.create(order, caller()));
  }

  /** Without `id` it creates; with, it changes details and (APPROVED/CANCELED) status. */
  @Exposed([MapOf(OrderDto)])
  async saveOrder(order: OrderDto): Promise<OrderView> {
    return toOrderView(await this.admin.save(order, caller()));
  }

  @Exposed([], { role: Role.GUEST })
  orderCheckout(): Promise<OrderView[] | null> {
    return asBuyer(async (buyer) => (await this.checkout.checkout(buyer)).map(toOrderView));
  }

  /** As `orderCheckout`, shipped to `addressId` (one of the caller's addresses) or to an inline `address`. */
  @Exposed([MapOf(CheckoutDto)], { role: Role.USER })
  async orderCheckoutTo(destination: CheckoutDto): Promise<OrderView[]> {
    return (await this.checkout.checkoutTo(caller(), destination)).map(toOrderView);
  }

  /** See {@link PaymentRequestDto}: choose the card of an order, or buy items directly; `confirm` pays. */
  @Exposed([MapOf(PaymentRequestDto)], { role: Role.GUEST })
  digitalOrderCheckout(request: PaymentRequestDto): Promise<OrderView | null> {
    return asBuyer(async (buyer) => toOrderView(await this.checkout.digitalCheckout(buyer, request)));
  }

  @Exposed(['String'])
  async createInvoiceBuyerToVendor(orderId: string): Promise<Attachment> {
    return this.invoice.create(await this.store.find(orderId));
  }

  @Exposed(['String'])
  removeOrder(orderId: string): Promise<void> {
    return this.admin.remove(orderId);
  }

  @Exposed(['IdList'])
  removeOrdersByIds(orderIds: string[]): Promise<void> {
    return this.admin.removeAll(orderIds);
  }

  @Exposed(['String', 'String'])
  removeCommerceItemFromOrder(orderId: string, commerceItemId: string): Promise<boolean> {
    return this.admin.removeItem(orderId, commerceItemId);
  }

  @Exposed([], { role: Role.GUEST })
  getOrdersFromLoggedUser(): Promise<OrderView[] | null> {
    return asBuyer(async (buyer) => (await this.store.ofBuyer(buyer.id)).map(toOrderView));
  }

  @Exposed(['IdList'], { role: Role.GUEST })
  getOrdersFromLoggedUserByIds(orderIds: string[]): Promise<OrderView[] | null> {
    return asBuyer(async (buyer) => (await this.store.visible(buyer, orderIds)).map(toOrderView));
  }

  @Exposed(['String'], { role: Role.GUEST })
  getOrder(orderId: string): Promise<OrderView | null> {
    return asBuyer(async (buyer) => toOrderView(await this.store.findOwn(orderId, buyer)));
  }

  /**
   * The seller's order desk: the orders of the seller the caller acts for, newest first, paged and filtered by status
   * and creation time ({@link SellerOrdersRequestDto}); an ADMIN names any seller with `sellerId`.
   */
  @Exposed([MapOf(SellerOrdersRequestDto)], { role: Role.USER })
  async getSellerOrdersPaged(request: SellerOrdersRequestDto): Promise<Page<OrderView>> {
    const { content, total } = await this.desk.list(request, caller());
    return toPage(content.map(toOrderView), total, request.page, request.size);
  }

  /** One order of the caller's seller (any for an ADMIN); another seller's is a 403. */
  @Exposed(['String'], { role: Role.USER })
  async getSellerOrder(orderId: string): Promise<OrderView> {
    return toOrderView(await this.desk.open(orderId, caller()));
  }

  @Exposed(['String'])
  async approve(orderId: string): Promise<boolean> {
    await this.transitions.move(orderId, OrderStatus.APPROVED, caller().id);
    return true;
  }

  @Exposed(['String'], { role: Role.GUEST })
  pay(orderId: string): Promise<PaymentStatus | null> {
    return asBuyer((buyer) => this.payments.pay(orderId, buyer));
  }

  @Exposed(['String'], { role: Role.GUEST })
  obtain3DSecureLink(orderId: string): Promise<string | null> {
    return asBuyer((buyer) => this.payments.threeDSecureLink(orderId, buyer));
  }

  /**
   * The buyer cancels their own order before shipment: unpaid at once (stock released), PAID through a full refund
   * (CANCELED once the provider's webhook settles it). 409 while being charged or once shipped; 403 for another's.
   */
  @Exposed(['String'], { role: Role.USER })
  async cancelOrder(orderId: string): Promise<OrderView> {
    return toOrderView(await this.cancellation.cancelByBuyer(orderId, caller()));
  }

  /**
   * Refunds a paid order, whole or per item ({@link RefundRequestDto}), through the card provider; settled by its
   * webhook. ADMIN, or the user acting for the order's seller.
   */
  @Exposed([MapOf(RefundRequestDto)], { role: Role.USER })
  async refundOrder(request: RefundRequestDto): Promise<OrderView> {
    const order = await this.refunds.refund(request, caller());
    const asked = order.refunds?.at(-1);
    const details = {
      reference: asked?.reference,
      amount: asked?.amount,
      items: request.items,
      restock: asked?.restock,
    };
    await this.audit.record({ action: 'order.refund', target: { type: 'order', id: request.orderId }, details });
    return toOrderView(order);
  }

  /** Books the parcel of a PAID order and ships it: the user acting for the order's seller, or an ADMIN. */
  @Exposed(['String'], { role: Role.USER })
  async ship(orderId: string): Promise<boolean> {
    await this.shipping.ship(orderId, caller());
    await this.audit.record({ action: 'order.ship', target: { type: 'order', id: orderId } });
    return true;
  }

  @Exposed(['String'])
  async deliver(orderId: string): Promise<boolean> {
    await this.shipping.deliver(orderId, caller());
    return true;
  }

  private async search(searchPlan: SearchPlan): Promise<{ content: OrderView[]; total: number }> {
    const { content, total } = await runSearch<StoredOrder>(this.orders, searchPlan);
    return { content: content.map(toOrderView), total };
  }
}

function plan(requestJson: string): SearchPlan {
  return planSearch(parseSearchRequest(requestJson), ORDER_SEARCH);
}

async function asBuyer<T>(action: (buyer: Principal) => Promise<T>): Promise<T | null> {
  const principal = RequestContext.principal();
  return principal ? action(principal) : null;
}

/** The caller of a method that needs a role (the invoker has checked it already). */
function caller(): Principal {
  const principal = RequestContext.principal();
  if (!principal) throw new UnauthorizedException('Authentication required');
  return principal;
}
