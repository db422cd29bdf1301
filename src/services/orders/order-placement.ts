import { BadRequestException, Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { RequestContext } from '../../common/request-context';
import { AppConfig } from '../../config/app-config';
import { SellerDirectory } from '../catalogue/seller-directory';
import { OfferCatalog } from '../catalogue/offer-catalog';
import { DEFAULT_ITEM_WEIGHT_GRAMS, ShippingQuotes } from '../delivery/shipping-quotes';
import { amounts, DraftContext, draftOrders, OrderDraft, OrderLine, OrderRates } from './order-drafts';
import { OrderTransitions } from './order-transitions';
import { OrderRepository } from './order.repository';
import { Order, OrderStatus, ShippingAddress } from './order.schema';
import { StoredOrder } from './order.view';
import { StockLine, StockReservation } from '../catalogue/stock-reservation';
import { codedError } from '../../common/errors/coded-exception';

export interface ItemRequest {
  sellerSkuId: string;
  quantity: number;
}

/** What pricing an order's shipping reads of it. */
export type Shippable = Pick<Order, 'embeddedVendor' | 'packageItem' | 'currencyCode' | 'subtotal' | 'buyerTaxRate'>;

export type PlacementContext = Omit<DraftContext, 'vendors' | 'rates'> & {
  rates?: Partial<OrderRates>;
  /** When above 0, the orders' total must equal it (409): the price the buyer agreed to. */
  expectedTotal?: number;
  /** Refuses (400) items that would make more than one order. */
  single?: boolean;
  /** When set, every order must be in this currency (409). */
  expectedCurrency?: string;
  /** The buyer's checkout: approve the orders at once (see {@link OrderPlacement.place}). */
  approve?: boolean;
};

export const AUTO_APPROVER = 'system:auto-approval';

/**
 * Turns requested items into NEW orders: priced from the offers, stock reserved, stored and announced. Approval at
 * checkout (issue 18 changes DESIGN §7): a checkout order's stock is reserved already, so its offers are in stock and
 * it is approved at once by `system:auto-approval`, unless `ORDER_APPROVAL=manual` leaves it NEW for an ADMIN's
 * `approve`; an ADMIN's `createOrder` is never approved here.
 */
@Injectable()
export class OrderPlacement {
  constructor(
    private readonly orders: OrderRepository,
    private readonly sellers: SellerDirectory,
    private readonly offers: OfferCatalog,
    private readonly stock: StockReservation,
    private readonly transitions: OrderTransitions,
    private readonly config: AppConfig,
    private readonly quotes: ShippingQuotes,
  ) {}

  /** All orders or none: stock taken for them is given back when storing fails. The orders as they are after approval. */
  async place(items: ItemRequest[], context: PlacementContext): Promise<StoredOrder[]> {
    const lines = await this.linesOf(items);
    const vendors = await this.vendorsOf(lines);
    const drafts = draftOrders(lines, { ...context, rates: this.ratesWith(context.rates), vendors });
    const lang = RequestContext.find()?.lang;
    if (lang) drafts.forEach((draft) => (draft.lang = lang));
    await this.addShipping(drafts, context.shippingAddress);
    assertExpectations(drafts, context);
    const reserved: StockLine[] = lines.map(({ offer, quantity }) => ({ sellerSku: offer._id, quantity }));
    await this.stock.reserve(reserved);
    let created: StoredOrder[];
    try {
      created = await this.orders.insertDrafts(drafts);
    } catch (error) {
      await this.stock.release(reserved);
      throw error;
    }
    for (const order of created) await this.transitions.placed(order);
    return context.approve ? this.approved(created) : created;
  }

  private approved(orders: StoredOrder[]): Promise<StoredOrder[]> {
    if (this.config.orderApproval === 'manual') return Promise.resolve(orders);
    const approve = (order: StoredOrder) =>
      this.transitions.move(String(order._id), OrderStatus.APPROVED, AUTO_APPROVER);
    return Promise.all(orders.map(approve));
  }

  /**
   * The shipping line and amounts of an order sent to `country`: the provider's cheapest rate for the order's
   * parcel from the seller's warehouse. 409 naming the seller when the provider does not serve the route.
   */
  async shippingTo(order: Shippable, country: string): Promise<Pick<Order, 'shipping' | 'subtotal' | 'tax' | 'total'>> {
    const { sellerId, name } = order.embeddedVendor;
    // Parcel orders get their weight at checkout; one without (placed before weights existed) counts as one item.
    const weightGrams = order.packageItem?.weightGrams ?? DEFAULT_ITEM_WEIGHT_GRAMS;
    const shipping = await this.quotes.quote({
      sellerId,
      toCountry: country,
      weightGrams,
      currency: order.currencyCode,
    });
    if (!shipping) {
      throw codedError(
        'DESTINATION_NOT_SERVED',
        `Seller "${name}" (${sellerId}) does not ship to ${country.toUpperCase()}`,
      );
    }
    return { shipping, ...amounts(order.subtotal, order.buyerTaxRate, shipping.amount) };
  }

  /** Before any stock is taken, so a route without a rate refuses the whole checkout with nothing to give back. */
  private async addShipping(drafts: OrderDraft[], address: ShippingAddress | undefined): Promise<void> {
    if (!address?.country) return;
    for (const draft of drafts) {
      if (!draft.digital) Object.assign(draft, await this.shippingTo(draft, address.country));
    }
  }

  /** Same offer twice adds up; every offer must exist and be for sale (404). */
  private async linesOf(items: ItemRequest[]): Promise<OrderLine[]> {
    const quantities = new Map<string, number>();
    for (const { sellerSkuId, quantity } of items) {
      const key = String(toObjectId(sellerSkuId, 'sellerSkuId'));
      quantities.set(key, (quantities.get(key) ?? 0) + quantity);
    }
    const offers = await this.offers.details([...quantities.keys()].map((id) => new Types.ObjectId(id)));
    return [...quantities].map(([id, quantity]) => {
      const offer = offers.get(id);
      if (!offer?.product.published) throw codedError('SKU_NOT_FOUND', `Seller SKU ${id} not found`);
      return { offer, quantity };
    });
  }

  private async vendorsOf(lines: OrderLine[]): Promise<DraftContext['vendors']> {
    const ids = [...new Set(lines.map(({ offer }) => String(offer.seller._id)))];
    return this.sellers.accountsOf(ids);
  }

  private ratesWith(overrides: Partial<OrderRates> = {}): OrderRates {
    const { taxPercent, serviceFeePercent } = this.config.orderRates;
    const given = Object.fromEntries(Object.entries(overrides).filter(([, rate]) => rate !== undefined));
    return { sellerTaxRate: taxPercent, buyerTaxRate: taxPercent, serviceTaxRate: serviceFeePercent, ...given };
  }
}

function assertExpectations(drafts: OrderDraft[], context: PlacementContext): void {
  if (context.single && drafts.length !== 1) {
    throw new BadRequestException('These items make several orders: one seller and one currency per request');
  }
  const currency = context.expectedCurrency?.toUpperCase();
  if (currency && drafts.some((draft) => draft.currencyCode !== currency)) {
    throw codedError('CURRENCY_MISMATCH', `The offers are not priced in ${currency}`);
  }
  const total = drafts.reduce((sum, draft) => sum + draft.total, 0);
  if (context.expectedTotal && context.expectedTotal !== total) {
    throw codedError('PRICE_CHANGED', `The total is ${total}, not ${context.expectedTotal}: prices have changed`);
  }
}
