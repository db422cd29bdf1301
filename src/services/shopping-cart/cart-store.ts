import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Error as MongooseError, Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { Cart, CartDocument, CartItem } from './cart.schema';
import { OfferCatalog, OfferDetails } from '../catalogue/offer-catalog';
import { assertWithinStock, clampToStock } from './stock-rules';
import { CartContents, toCartView } from './cart.view';
import { codedError } from '../../common/errors/coded-exception';

const ATTEMPTS = 3;

export interface CartAddition {
  sellerSkuId: string;
  quantity: number;
}

/** Reads and changes buyers' carts, keeping every line within the offer's stock. */
@Injectable()
export class CartStore {
  constructor(
    @InjectModel(Cart.name) private readonly carts: Model<Cart>,
    private readonly offers: OfferCatalog,
  ) {}

  /** The buyer's cart, cut back to current stock first; an empty cart when the buyer has none. */
  async view(buyerId: string): Promise<CartContents> {
    let cart = await this.carts.findOne({ buyerId });
    if (!cart) return toCartView({ buyerId, items: [] }, new Map());
    let offers = await this.offersOf(cart);
    if (clampToStock(cart, offers)) {
      cart = await this.mutate(buyerId, async (fresh) => void clampToStock(fresh, await this.offersOf(fresh)));
      offers = await this.offersOf(cart);
    }
    return toCartView(cart, offers);
  }

  async exists(buyerId: string): Promise<boolean> {
    return Boolean(await this.carts.exists({ buyerId }));
  }

  /** Adds every offer or none: each resulting line must stay within stock (409) and be for sale (404). */
  async add(buyerId: string, additions: CartAddition[]): Promise<CartContents> {
    const ids = additions.map((addition) => toObjectId(addition.sellerSkuId, 'sellerSkuId'));
    await this.mutate(buyerId, async (cart) => {
      for (const [index, addition] of additions.entries()) {
        const offer = await this.offers.forSale(ids[index]);
        const line = cart.items.find((item) => item.sellerSku.equals(ids[index]));
        assertWithinStock((line?.quantity ?? 0) + addition.quantity, offer);
        if (line) line.quantity += addition.quantity;
        else cart.items.push({ sellerSku: ids[index], quantity: addition.quantity });
      }
    });
    return this.view(buyerId);
  }

  /** Whether `add` of one unit would succeed now. */
  async canAdd(buyerId: string, sellerSkuId: string): Promise<boolean> {
    const id = toObjectId(sellerSkuId, 'sellerSkuId');
    const offer = (await this.offers.details([id])).get(String(id));
    if (!offer?.product.published) return false;
    const cart = await this.carts.findOne({ buyerId }, { items: 1 }).lean();
    const inCart = cart?.items.find((item) => item.sellerSku.equals(id))?.quantity ?? 0;
    return inCart + 1 <= offer.quantity;
  }

  /** Sets the line's quantity to `next(current)`; 0 removes the line. */
  async changeQuantity(buyerId: string, itemId: string, next: (current: number) => number): Promise<CartContents> {
    const id = toObjectId(itemId, 'itemId');
    await this.mutate(buyerId, async (cart) => {
      const line = findLine(cart, id, itemId);
      const quantity = next(line.quantity);
      if (quantity < 0) throw new BadRequestException('quantity must not be negative');
      if (quantity === 0) {
        cart.items.pull(id);
        return;
      }
      assertWithinStock(quantity, await this.offers.forSale(line.sellerSku));
      line.quantity = quantity;
    });
    return this.view(buyerId);
  }

  async remove(buyerId: string, itemId: string): Promise<CartContents> {
    const id = toObjectId(itemId, 'itemId');
    await this.mutate(buyerId, async (cart) => {
      cart.items.pull(findLine(cart, id, itemId)._id);
    });
    return this.view(buyerId);
  }

  /** Bumps the version too, so a change racing with the clearing is retried instead of restoring the items. */
  async clear(buyerId: string): Promise<void> {
    await this.carts.updateOne({ buyerId }, { $set: { items: [] }, $inc: { __v: 1 } });
  }

  private offersOf(cart: CartDocument): Promise<Map<string, OfferDetails>> {
    return this.offers.details(cart.items.map((item) => item.sellerSku));
  }

  /**
   * Applies `change` to the buyer's cart (created on first use) and saves it. A concurrent change of the same
   * cart (version conflict, or a racing creation) re-runs `change` on the fresh cart.
   */
  private async mutate(buyerId: string, change: (cart: CartDocument) => Promise<void>): Promise<CartDocument> {
    for (let attempt = 1; ; attempt++) {
      const cart = (await this.carts.findOne({ buyerId })) ?? new this.carts({ buyerId, items: [] });
      await change(cart);
      try {
        return await cart.save();
      } catch (error) {
        if (!isConcurrentChange(error) || attempt >= ATTEMPTS) throw translate(error);
      }
    }
  }
}

function findLine(cart: CartDocument, id: Types.ObjectId, itemId: string): CartItem {
  const line = cart.items.id(id);
  if (!line) throw new NotFoundException(`Cart item ${itemId} not found`);
  return line;
}

function isConcurrentChange(error: unknown): boolean {
  return error instanceof MongooseError.VersionError || isDuplicateKeyError(error);
}

function translate(error: unknown): unknown {
  return isConcurrentChange(error)
    ? codedError('CONCURRENT_CHANGE', 'The cart was changed concurrently; try again')
    : error;
}
