import { BadRequestException, NotFoundException } from '@nestjs/common';
import { UserAccounts } from '../../auth/users/user-accounts';
import { Bean, Exposed, MapOf } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { CustomerActivityRecorder } from '../customer-analytics/customer-activity-recorder';
import { CustomerActivityType } from '../customer-analytics/customer-activity-type';
import { AddCartItemDto, AddCartItemsDto } from './cart.dto';
import { CartStore } from './cart-store';
import { CartTotals } from './cart-totals';
import { CartContents, ShoppingCartView } from './cart.view';

/**
 * The cart bean, "conditional for USER/ADMIN" (DESIGN §2): every method but `getCartDTO(buyerId)` is exposed at
 * GUEST level and acts on the caller's own cart; a GUEST has no cart and gets `null`. Only an ADMIN reads another
 * buyer's cart.
 */
@Bean('shoppingCartServiceImpl', Role.ADMIN)
export class ShoppingCartService {
  constructor(
    private readonly store: CartStore,
    private readonly activity: CustomerActivityRecorder,
    private readonly users: UserAccounts,
    private readonly totals: CartTotals,
  ) {}

  @Exposed([], { role: Role.GUEST })
  getCartDTO(): Promise<ShoppingCartView | null> {
    return this.asBuyer((buyerId) => this.priced(this.store.view(buyerId)));
  }

  /** An account without a cart has an empty one. @throws 404 when `buyerId` names neither a cart nor an account. */
  @Exposed(['String'], { name: 'getCartDTO', role: Role.ADMIN })
  async getCartDtoOfBuyer(buyerId: string): Promise<ShoppingCartView> {
    if (!buyerId.trim()) throw new BadRequestException('buyerId is required');
    if (!(await this.store.exists(buyerId)) && !(await this.users.accessState(buyerId))) {
      throw new NotFoundException(`Buyer ${buyerId} not found`);
    }
    return this.priced(this.store.view(buyerId));
  }

  @Exposed(['String'], { name: 'addCommerceItem', role: Role.GUEST })
  addCommerceItemById(sellerSkuId: string): Promise<ShoppingCartView | null> {
    return this.change('add', { sellerSkuId, quantity: 1 }, (buyerId) =>
      this.priced(this.store.add(buyerId, [{ sellerSkuId, quantity: 1 }])),
    );
  }

  @Exposed([MapOf(AddCartItemDto)], { role: Role.GUEST })
  addCommerceItem(data: AddCartItemDto): Promise<ShoppingCartView | null> {
    return this.change('add', { ...data }, (buyerId) => this.priced(this.store.add(buyerId, [data])));
  }

  @Exposed([MapOf(AddCartItemsDto)], { role: Role.GUEST })
  addCommerceItems(data: AddCartItemsDto): Promise<ShoppingCartView | null> {
    return this.change('add', { items: data.items.map((item) => ({ ...item })) }, (buyerId) =>
      this.priced(this.store.add(buyerId, data.items)),
    );
  }

  @Exposed(['String'], { role: Role.GUEST })
  removeCommerceItem(itemId: string): Promise<ShoppingCartView | null> {
    return this.change('remove', { itemId }, (buyerId) => this.priced(this.store.remove(buyerId, itemId)));
  }

  @Exposed([], { role: Role.GUEST })
  async clearCart(): Promise<void> {
    await this.change('clear', {}, (buyerId) => this.store.clear(buyerId));
  }

  /** Down by one; at one the line is removed. */
  @Exposed(['String'], { role: Role.GUEST })
  decreaseQuantity(itemId: string): Promise<ShoppingCartView | null> {
    return this.change('decrease', { itemId }, (buyerId) =>
      this.priced(this.store.changeQuantity(buyerId, itemId, (current) => current - 1)),
    );
  }

  /** `quantity` is a whole number as text (the spec types it String); 0 removes the line. */
  @Exposed(['String', 'String'], { role: Role.GUEST })
  updateQuantity(itemId: string, quantity: string): Promise<ShoppingCartView | null> {
    const wanted = parseQuantity(quantity);
    return this.change('update', { itemId, quantity: wanted }, (buyerId) =>
      this.priced(this.store.changeQuantity(buyerId, itemId, () => wanted)),
    );
  }

  @Exposed(['String'], { role: Role.GUEST })
  increaseQuantity(itemId: string): Promise<ShoppingCartView | null> {
    return this.change('increase', { itemId }, (buyerId) =>
      this.priced(this.store.changeQuantity(buyerId, itemId, (current) => current + 1)),
    );
  }

  /** True exactly when `addCommerceItem(sellerSkuId)` would succeed now. */
  @Exposed(['String'], { role: Role.GUEST })
  canAddItem(sellerSkuId: string): Promise<boolean | null> {
    return this.asBuyer((buyerId) => this.store.canAdd(buyerId, sellerSkuId));
  }

  private async priced(cart: Promise<CartContents>): Promise<ShoppingCartView> {
    return this.totals.of(await cart);
  }

  private async asBuyer<T>(action: (buyerId: string) => Promise<T>): Promise<T | null> {
    const principal = RequestContext.principal();
    return principal ? action(principal.id) : null;
  }

  private async change<T>(
    action: string,
    data: Record<string, unknown>,
    apply: (buyerId: string) => Promise<T>,
  ): Promise<T | null> {
    return this.asBuyer(async (buyerId) => {
      const result = await apply(buyerId);
      void this.activity.record(buyerId, CustomerActivityType.CART_CHANGE, { action, ...data });
      return result;
    });
  }
}

function parseQuantity(quantity: string): number {
  if (!/^\s*\d{1,9}\s*$/.test(quantity)) {
    throw new BadRequestException('quantity must be a whole number of at least 0');
  }
  return Number(quantity);
}
