import { ConflictException, Injectable, Logger } from '@nestjs/common';
import { Types } from 'mongoose';
import { OfferRepository, Units } from './offer.repository';
import { SellerSku } from './seller-sku.schema';
import { codedError } from '../../common/errors/coded-exception';

export interface StockLine {
  sellerSku: Types.ObjectId;
  quantity: number;
}

/** Attempts of one dispatch step before it is given up (each loses only to another write of the same offer). */
const DISPATCH_ATTEMPTS = 20;

/**
 * Takes stock out of seller SKUs for orders (DESIGN §7). Each line is one conditional `$inc` that only matches
 * while the offer is active and `quantity >= n`, so concurrent checkouts never take more than there is and stock
 * never goes negative. The units taken move from `quantity` (available) to `reserved` (still on hand, promised to
 * an order) until the order ships (`dispatch`) or gives them back (`release`); every step keeps
 * `quantity + reserved` equal to the units on hand (README, "Offers and stock").
 * There are no multi-document transactions on a standalone server: when a later line fails, the lines already
 * taken are given back.
 */
@Injectable()
export class StockReservation {
  private readonly logger = new Logger(StockReservation.name);

  constructor(private readonly offers: OfferRepository) {}

  /** All lines or none; 409 naming the first offer that is inactive or without enough stock. */
  async reserve(lines: StockLine[]): Promise<void> {
    const taken: StockLine[] = [];
    for (const line of lines) {
      if (!(await this.offers.take(unitsOf(line)))) {
        await this.release(taken);
        throw await this.refusal(line.sellerSku);
      }
      taken.push(line);
    }
  }

  /**
   * Gives stock back before it shipped (a failed checkout, a canceled, expired or removed unpaid order, a removed
   * line): reserved units become available again.
   */
  async release(lines: StockLine[]): Promise<void> {
    for (const line of lines) {
      try {
        await this.releaseLine(line);
      } catch (error) {
        const what = `${line.quantity} of seller SKU ${String(line.sellerSku)}`;
        this.logger.error(`Could not give back ${what}`, (error as Error).stack);
      }
    }
  }

  /**
   * The order's goods left the seller: its reserved units stop being on hand. They leave the warehouses holding
   * the most (orders do not say which warehouse ships), one conditional step per warehouse touched.
   */
  async dispatch(lines: StockLine[]): Promise<void> {
    for (const line of lines) {
      try {
        await this.dispatchLine(line);
      } catch (error) {
        const what = `${line.quantity} of seller SKU ${String(line.sellerSku)}`;
        this.logger.error(`Could not take shipped ${what} off hand`, (error as Error).stack);
      }
    }
  }

  /**
   * Shipped goods came back (a refund with restock after shipping): on hand again at the seller's first warehouse,
   * and for sale. Unlike {@link release} it leaves `reserved` alone, which belongs to orders not shipped yet.
   */
  async returnGoods(lines: StockLine[]): Promise<void> {
    for (const line of lines) {
      try {
        await this.returnLine(line);
      } catch (error) {
        const what = `${line.quantity} returned units of seller SKU ${String(line.sellerSku)}`;
        this.logger.error(`Could not put back ${what}`, (error as Error).stack);
      }
    }
  }

  private async returnLine(line: StockLine): Promise<void> {
    const units = unitsOf(line);
    // Two conditional updates, one per shape of the offer; a first warehouse edit in between makes both miss: retry.
    for (let attempt = 0; attempt < DISPATCH_ATTEMPTS; attempt++) {
      if (await this.offers.returnToFirstWarehouse(units)) return;
      if (await this.offers.returnUnplaced(units)) return;
    }
    throw new Error(`Seller SKU ${String(line.sellerSku)} is unknown or changing too often`);
  }

  private async releaseLine(line: StockLine): Promise<void> {
    const units = unitsOf(line);
    if (await this.offers.release(units)) return;
    // Taken before offers counted their reservations: those units only ever left `quantity`.
    await this.offers.releaseUncounted(units);
  }

  private async dispatchLine({ sellerSku, quantity }: StockLine): Promise<void> {
    let remaining = quantity;
    for (let attempt = 0; remaining > 0 && attempt < DISPATCH_ATTEMPTS; attempt++) {
      const offer = await this.offers.stockOf(sellerSku);
      if (!offer || (offer.reserved ?? 0) < remaining) {
        this.logger.warn(`Seller SKU ${String(sellerSku)} shipped ${remaining} units it had not counted as reserved`);
        return;
      }
      remaining -= await this.dispatchStep(sellerSku, remaining, offer.stockByWarehouse ?? []);
    }
    if (remaining > 0) throw new Error(`${remaining} units still reserved after ${DISPATCH_ATTEMPTS} attempts`);
  }

  /** Units taken off hand by one conditional update (0 when another write came first). */
  private async dispatchStep(
    sellerSku: Types.ObjectId,
    wanted: number,
    stock: SellerSku['stockByWarehouse'],
  ): Promise<number> {
    if (stock.length === 0) {
      return (await this.offers.shipUnplaced({ offer: sellerSku, quantity: wanted })) ? wanted : 0;
    }
    const fullest = stock.reduce((best, entry) => (entry.onHand > best.onHand ? entry : best));
    const taken = Math.min(wanted, fullest.onHand);
    if (taken === 0) return 0;
    return (await this.offers.shipFrom(fullest.warehouse, { offer: sellerSku, quantity: taken })) ? taken : 0;
  }

  private async refusal(sellerSku: Types.ObjectId): Promise<ConflictException> {
    if (await this.offers.isInactive(sellerSku))
      return codedError('NOT_FOR_SALE', `Seller SKU ${String(sellerSku)} is not for sale`);
    return codedError('OUT_OF_STOCK', `Not enough stock of seller SKU ${String(sellerSku)}`);
  }
}

function unitsOf({ sellerSku, quantity }: StockLine): Units {
  return { offer: sellerSku, quantity };
}
