import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { CreateSkuDto, UpdateSkuDto } from './catalogue-admin.dto';
import { definedOnly, listed, AdminSkuView, toSkuView } from './catalogue-admin.view';
import { CatalogueReferences } from './catalogue-references';
import { ProductRepository } from './product.repository';
import { SellerSku } from './seller-sku.schema';
import { StoredSku, SkuRepository } from './sku.repository';

/**
 * SKUs (a product's variants). A SKU that sellers offer is never deleted (409 naming the offers and the units open
 * orders hold): offers cannot be deleted through the API, so every order line keeps an offer and its SKU.
 */
@Injectable()
export class SkuAdmin {
  constructor(
    private readonly skus: SkuRepository,
    private readonly products: ProductRepository,
    @InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>,
    private readonly references: CatalogueReferences,
  ) {}

  /** 404 for an unknown product or attribute, 409 for a code in use. */
  async create(dto: CreateSkuDto): Promise<AdminSkuView> {
    const product = toObjectId(dto.productId, 'productId');
    if (!(await this.products.exists(product))) throw new NotFoundException(`Product ${dto.productId} not found`);
    const attributes = (await this.references.attributeValues(dto.attributes)) ?? [];
    const fields = { product, code: dto.code, name: dto.name, attributes, weightGrams: dto.weightGrams };
    const created = await this.skus.create(fields).catch(conflictOnDuplicate(`SKU code "${dto.code}" is in use`));
    return toSkuView(created);
  }

  async update(id: string, dto: UpdateSkuDto): Promise<AdminSkuView> {
    const attributes = await this.references.attributeValues(dto.attributes);
    const change = definedOnly({ code: dto.code, name: dto.name, attributes, weightGrams: dto.weightGrams });
    const updated = await this.skus
      .update(toObjectId(id, 'id'), change)
      .catch(conflictOnDuplicate(`SKU code "${dto.code}" is in use`));
    if (!updated) throw new NotFoundException(`SKU ${id} not found`);
    return toSkuView(updated);
  }

  async remove(id: string): Promise<AdminSkuView> {
    const sku = await this.skus.find(toObjectId(id, 'id'));
    if (!sku) throw new NotFoundException(`SKU ${id} not found`);
    await this.assertNotOffered([sku]);
    await this.deleteUnlessOffered([sku]);
    return toSkuView(sku);
  }

  /**
   * Deletes SKUs that were not offered when checked, then checks again: a seller's offer written in between makes
   * this put the SKUs back and answer 409. Offers are written first and checked after (`SellerOffers.create`), so
   * at least one of the two sees the other: no offer is left pointing at a deleted SKU.
   */
  async deleteUnlessOffered(skus: StoredSku[]): Promise<void> {
    if (skus.length === 0) return;
    await this.skus.delete(skus);
    try {
      await this.assertNotOffered(skus);
    } catch (error) {
      await this.skus.restore(skus);
      throw error;
    }
  }

  /** 409 naming the offers of these SKUs and the units open orders hold of them. */
  async assertNotOffered(skus: StoredSku[]): Promise<void> {
    const ids = skus.map((sku) => sku._id);
    const offers = await this.offers
      .find({ sku: { $in: ids } }, { sku: 1, reserved: 1 })
      .lean()
      .exec();
    if (offers.length === 0) return;
    const codes = new Map(skus.map((sku) => [String(sku._id), sku.code]));
    const offered = listed([...new Set(offers.map((offer) => codes.get(String(offer.sku)) ?? String(offer.sku)))]);
    const reserved = offers.reduce((sum, offer) => sum + (offer.reserved ?? 0), 0);
    const held = reserved > 0 ? `; open orders hold ${reserved} units` : '';
    const offerIds = listed(offers.map((offer) => String(offer._id)));
    throw new ConflictException(`SKU ${offered} is offered by sellers (offers ${offerIds})${held}`);
  }
}
