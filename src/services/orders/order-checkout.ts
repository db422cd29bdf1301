import { BadRequestException, Injectable } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { CustomerActivityRecorder } from '../customer-analytics/customer-activity-recorder';
import { CustomerActivityType } from '../customer-analytics/customer-activity-type';
import { CartStore } from '../shopping-cart/cart-store';
import { AddressBook } from '../geolocation/address-book';
import { AddressView } from '../geolocation/address.view';
import { CountryDirectory } from '../geolocation/country-directory';
import { CheckoutLocks } from './checkout-lock';
import { CheckoutDto } from './checkout.dto';
import { OrderPayments } from './order-payments';
import { OrderPlacement } from './order-placement';
import { OrderRepository } from './order.repository';
import { OrderTransitions } from './order-transitions';
import { OrderStatus, ShippingAddress } from './order.schema';
import { StoredOrder } from './order.view';
import { PaymentReturnUrls } from './payment-return-url';
import { PaymentRequestDto } from './payment-request.dto';
import { codedError } from '../../common/errors/coded-exception';

const DIGITAL_APPROVER = 'system:digital-checkout';

/** The buyer's ways to order: the whole cart, or a payment request (DESIGN §7). */
@Injectable()
export class OrderCheckout {
  constructor(
    private readonly carts: CartStore,
    private readonly placement: OrderPlacement,
    private readonly store: OrderRepository,
    private readonly transitions: OrderTransitions,
    private readonly payments: OrderPayments,
    private readonly activity: CustomerActivityRecorder,
    private readonly locks: CheckoutLocks,
    private readonly addressBook: AddressBook,
    private readonly countries: CountryDirectory,
    private readonly returnUrls: PaymentReturnUrls,
  ) {}

  /**
   * One order per seller from the buyer's cart, shipped to the buyer's default address, stock reserved; the cart
   * is emptied. 409 for an empty cart and for a buyer without an address.
   */
  checkout(buyer: Principal): Promise<StoredOrder[]> {
    return this.locks.holding(buyer.id, () => this.checkoutCart(buyer, () => this.defaultAddress(buyer)));
  }

  /** As {@link checkout}, to one of the buyer's own addresses or to an address given inline (400 otherwise). */
  checkoutTo(buyer: Principal, destination: CheckoutDto): Promise<StoredOrder[]> {
    return this.locks.holding(buyer.id, () => this.checkoutCart(buyer, () => this.chosenAddress(buyer, destination)));
  }

  private async checkoutCart(buyer: Principal, address: () => Promise<ShippingAddress>): Promise<StoredOrder[]> {
    const cart = await this.carts.view(buyer.id);
    const items = cart.sellers.flatMap((seller) => seller.items);
    if (items.length === 0) throw codedError('CART_EMPTY', 'The cart is empty');
    const orders = await this.placement.place(items, {
      buyer: { userId: buyer.id, username: buyer.username },
      by: buyer.id,
      digital: false,
      shippingAddress: await address(),
      approve: true,
    });
    await this.carts.clear(buyer.id);
    this.recordCheckout(buyer.id, orders);
    return orders;
  }

  /**
   * With `orderId`: sets the card, address and e-mail of the buyer's unpaid order. Without: orders `commerceItems`
   * directly from one seller. `confirm` then charges; a new digital order is approved by the system first.
   */
  async digitalCheckout(buyer: Principal, asked: PaymentRequestDto): Promise<StoredOrder> {
    const returnUrl = asked.returnUrl === undefined ? undefined : this.returnUrls.check(asked.returnUrl);
    const request = { ...asked, returnUrl };
    const order = request.orderId ? await this.prepare(buyer, request) : await this.placeDirect(buyer, request);
    if (!request.confirm) return order;
    const id = String(order._id);
    if (order.digital && order.status === OrderStatus.NEW) {
      await this.transitions.move(id, OrderStatus.APPROVED, DIGITAL_APPROVER);
    }
    const { description, toAccountId: destinationAccountId, metadata } = request;
    await this.payments.pay(id, buyer, { description, destinationAccountId, metadata, returnUrl });
    return this.store.find(id);
  }

  private async defaultAddress(buyer: Principal): Promise<ShippingAddress> {
    const address = await this.addressBook.defaultShippingOf(buyer.id);
    if (!address) {
      throw codedError(
        'SHIPPING_ADDRESS_MISSING',
        'No shipping address: create an address first, or use orderCheckoutTo',
      );
    }
    return fromAddressBook(address, buyer);
  }

  private async chosenAddress(buyer: Principal, { addressId, address }: CheckoutDto): Promise<ShippingAddress> {
    if (addressId) return fromAddressBook(await this.addressBook.ownedBy(addressId, buyer.id), buyer);
    if (!address) throw new BadRequestException('Give exactly one of addressId and address');
    return { ...address, country: this.knownCountry(address.country) };
  }

  private knownCountry(code: string): string {
    try {
      return this.countries.resolve(code);
    } catch {
      throw new BadRequestException(`Unknown country "${code}"`);
    }
  }

  private async placeDirect(buyer: Principal, request: PaymentRequestDto): Promise<StoredOrder> {
    const items = (request.commerceItems ?? []).map(({ sellerSkuId, quantity }) => ({
      sellerSkuId,
      quantity: quantity ?? (request.quantity || 1),
    }));
    if (items.length === 0) throw new BadRequestException('A payment request without orderId needs commerceItems');
    const [order] = await this.placement.place(items, {
      buyer: { userId: buyer.id, username: buyer.username, email: request.email },
      by: buyer.id,
      digital: true,
      single: true,
      expectedTotal: request.amount,
      expectedCurrency: request.currencyCode,
      shippingAddress: request.shippingAddress,
      paymentMethodId: request.paymentMethodId,
      paymentReturnUrl: request.returnUrl,
      approve: true,
    });
    this.recordCheckout(buyer.id, [order]);
    return order;
  }

  /** A new address of a parcel order is quoted again: its shipping line, tax and total follow it. */
  private async prepare(buyer: Principal, request: PaymentRequestDto): Promise<StoredOrder> {
    const order = await this.store.findOwn(String(request.orderId), buyer);
    const set = preparation(request);
    if (request.shippingAddress && !order.digital) {
      const { country } = request.shippingAddress;
      if (!country) throw new BadRequestException('The shippingAddress of a parcel needs a country');
      Object.assign(set, await this.placement.shippingTo(order, country));
    }
    const total = (set.total as number | undefined) ?? order.total;
    if (request.amount && request.amount !== total) {
      throw codedError('PRICE_CHANGED', `The total is ${total}, not ${request.amount}`);
    }
    assertCurrency(order, request.currencyCode);
    const updated = await this.store.preparePayment(order, set);
    if (!updated) {
      throw codedError(
        'ORDER_STATUS_CONFLICT',
        `Order ${String(order._id)} is ${order.status}; its payment can no longer change`,
      );
    }
    return updated;
  }

  private recordCheckout(buyerId: string, orders: StoredOrder[]): void {
    const summary = orders.map(({ _id, total, currencyCode: currency }) => ({ orderId: String(_id), total, currency }));
    void this.activity.record(buyerId, CustomerActivityType.CHECKOUT, { orders: summary });
  }
}

/** An address book entry as the parcel's address; the carrier needs a name, which is the buyer's account name. */
function fromAddressBook(address: AddressView, buyer: Principal): ShippingAddress {
  const { street, houseNumber, postalCode, city, country } = address;
  return { name: buyer.username, street, houseNumber: houseNumber ?? undefined, postalCode, city, country };
}

function preparation(request: PaymentRequestDto): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  if (request.paymentMethodId) set.paymentMethodId = request.paymentMethodId;
  if (request.returnUrl) set.paymentReturnUrl = request.returnUrl;
  if (request.shippingAddress) set.shippingAddress = request.shippingAddress;
  if (request.email) set['embeddedBuyer.email'] = request.email;
  return set;
}

function assertCurrency(order: StoredOrder, currencyCode: string | undefined): void {
  if (currencyCode && currencyCode.toUpperCase() !== order.currencyCode) {
    throw codedError('CURRENCY_MISMATCH', `The order is in ${order.currencyCode}, not ${currencyCode.toUpperCase()}`);
  }
}
