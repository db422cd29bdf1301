import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { Principal } from '../../common/principal';
import { assertOwnerOrAdmin, isAdmin } from './caller';
import { CatalogueTopic } from './catalogue-topic';
import { OfferStock, StockEdit } from './offer-stock';
import { OfferRepository, OfferTerms } from './offer.repository';
import { SellerDirectory, SellerRecord } from './seller-directory';
import { CreateOfferDto, UpdateOfferDto, WarehouseStockDto } from './seller-offer.dto';
import {
  SellerOfferPage,
  SellerOfferView,
  StoredOffer,
  toPublicOfferView,
  toSellerOfferView,
} from './seller-offer.view';
import { Sku } from './sku.schema';
import { withIndexSourcesRead } from './storefront-index.hooks';
import { IndexSourcesRead } from './storefront-indexer';
import { codedError } from '../../common/errors/coded-exception';

/**
 * Seller self-service for offers: a user acts on the offers of the seller they act for (`Seller.userId`), an ADMIN
 * on any seller's. Every change is a write through the offer model (so the storefront index is updated before the
 * call returns) and is then published on `/topic/catalogue` as `offer.changed`.
 */
@Injectable()
export class SellerOffers {
  constructor(
    private readonly offers: OfferRepository,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    private readonly sellers: SellerDirectory,
    private readonly stock: OfferStock,
    private readonly topic: CatalogueTopic,
  ) {}

  /** The caller's seller's offers by SKU, a page of them; 404 when the caller acts for no seller. */
  async listOwn(caller: Principal, page: number, limit: number): Promise<SellerOfferPage> {
    const seller = await this.ownSellerId(caller);
    const { offers, total } = await this.offers.pageOfSeller(seller, page, limit);
    return { items: offers.map(toSellerOfferView), total, page, limit };
  }

  /** 404 unknown SKU or seller, 403 another's seller, 400 a warehouse that is not the seller's, 409 duplicate. */
  async create(caller: Principal, dto: CreateOfferDto): Promise<SellerOfferView> {
    const seller = await this.sellerToActFor(caller, dto.sellerId);
    const sku = await this.skus.findById(toObjectId(dto.skuId, 'skuId'), { product: 1 }).lean().exec();
    if (!sku) throw codedError('SKU_NOT_FOUND', `SKU ${dto.skuId} not found`);
    const stockByWarehouse = warehouseStockOf(seller, dto.stock ?? []);
    const created = await this.offers
      .create({
        seller: seller._id,
        sku: sku._id,
        product: sku.product,
        price: dto.price,
        currency: dto.currency,
        active: dto.active ?? true,
        quantity: stockByWarehouse.reduce((sum, entry) => sum + entry.onHand, 0),
        reserved: 0,
        stockByWarehouse,
      })
      .catch(conflictOnDuplicate(`Seller ${String(seller._id)} already offers SKU ${dto.skuId}`));
    await this.withdrawIfSkuDeleted(created._id, sku._id, dto.skuId);
    return this.announced(created);
  }

  /**
   * An operator may have deleted the SKU since it was read: the offer is written first and the SKU checked after,
   * while a SKU delete does the reverse (`SkuAdmin.remove`), so at least one of the two sees the other and gives way.
   */
  private async withdrawIfSkuDeleted(offer: Types.ObjectId, sku: Types.ObjectId, skuId: string): Promise<void> {
    if (await this.skus.exists({ _id: sku })) return;
    await this.offers.remove(offer);
    throw new NotFoundException(`SKU ${skuId} not found`);
  }

  async update(caller: Principal, offerId: string, dto: UpdateOfferDto): Promise<SellerOfferView> {
    const { offer } = await this.ownedOffer(caller, offerId);
    const set: OfferTerms = Object.fromEntries(
      Object.entries({ price: dto.price, currency: dto.currency, active: dto.active }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    if (Object.keys(set).length === 0)
      throw new BadRequestException('Nothing to change: give price, currency or active');
    const changed = await this.offers.changeTerms(offer._id, set);
    if (!changed) throw new NotFoundException(`Offer ${offerId} not found`);
    return this.announced(changed);
  }

  /**
   * Sets or moves the units on hand at one of the seller's warehouses (see {@link OfferStock}). The ownership read
   * also reads the storefront index's sources, which the refresh after the write then needs not read again.
   */
  async editStock(caller: Principal, offerId: string, warehouseId: string, edit: StockEdit): Promise<SellerOfferView> {
    const { offer, seller, indexSources } = await this.ownedOffer(caller, offerId, { indexSources: true });
    const warehouse = toObjectId(warehouseId, 'warehouseId');
    assertWarehouseOf(seller, warehouse);
    const edited = await withIndexSourcesRead(indexSources, () => this.stock.edit(offer, warehouse, edit));
    return this.announced(edited);
  }

  private announced(offer: StoredOffer): SellerOfferView {
    this.topic.offerChanged(toPublicOfferView(offer));
    return toSellerOfferView(offer);
  }

  /**
   * 400 malformed id, 404 unknown offer (or seller), 403 an offer of a seller the caller does not act for. The offer
   * comes with its seller in one read, and with the storefront index's sources when asked (`findForOwnWrite`): a
   * stock edit's cost is its round trips (bench/README.md).
   */
  private async ownedOffer(
    caller: Principal,
    offerId: string,
    { indexSources = false } = {},
  ): Promise<{ offer: StoredOffer; seller: SellerRecord; indexSources?: IndexSourcesRead }> {
    const id = toObjectId(offerId, 'id');
    const found = await (indexSources ? this.offers.findForOwnWrite(id) : this.offers.findWithSeller(id));
    if (!found) throw new NotFoundException(`Offer ${offerId} not found`);
    const { offer, seller } = found;
    if (!seller) throw new NotFoundException(`Seller ${String(offer.seller)} not found`);
    assertOwnerOrAdmin(caller, seller.userId);
    return { ...found, seller };
  }

  private async sellerToActFor(caller: Principal, sellerId: string | undefined): Promise<SellerRecord> {
    if (sellerId === undefined) {
      const own = await this.sellers.idActingFor(caller.id);
      if (!own) throw new NotFoundException(`You act for no seller${isAdmin(caller) ? '; give sellerId' : ''}`);
      return this.sellers.get(String(own));
    }
    const seller = await this.sellers.get(sellerId);
    if (!isAdmin(caller) && seller.userId !== caller.id) {
      throw new ForbiddenException('Only an ADMIN offers for another seller');
    }
    return seller;
  }

  private async ownSellerId(caller: Principal): Promise<Types.ObjectId> {
    const seller = await this.sellers.idActingFor(caller.id);
    if (!seller) throw new NotFoundException('You act for no seller');
    return seller;
  }
}

function assertWarehouseOf(seller: SellerRecord, warehouse: Types.ObjectId): void {
  if (!seller.shippingAddresses.some((address) => address.equals(warehouse))) {
    throw new BadRequestException(`Warehouse ${String(warehouse)} is not an address of seller ${String(seller._id)}`);
  }
}

/** 400 for a warehouse that is not the seller's, or one given twice. */
function warehouseStockOf(seller: SellerRecord, stock: WarehouseStockDto[]) {
  const warehouses = stock.map((entry) => new Types.ObjectId(entry.warehouseId));
  warehouses.forEach((warehouse) => assertWarehouseOf(seller, warehouse));
  if (new Set(stock.map((entry) => entry.warehouseId.toLowerCase())).size !== stock.length) {
    throw new BadRequestException('Each warehouse may appear once in stock');
  }
  return stock.map((entry, index) => ({ warehouse: warehouses[index], onHand: entry.quantity }));
}
