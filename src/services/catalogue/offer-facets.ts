import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage, Types } from 'mongoose';
import { Attribute } from './attribute.schema';
import { Product } from './product.schema';
import { SellerSku } from './seller-sku.schema';
import { Sku } from './sku.schema';

/** An attribute as stored: what a storefront filter is named and measured in. */
export type AttributeRecord = Attribute & { _id: Types.ObjectId };

/**
 * The catalogue's read model for the storefront (product search): read-only aggregations over the offers (seller
 * SKUs) or the products, and the SKUs and attributes that narrow them.
 */
@Injectable()
export class OfferFacets {
  constructor(
    @InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
  ) {}

  /** Runs a read-only pipeline over the offers; it starts from the `sellerskus` collection. */
  aggregate<T>(pipeline: PipelineStage[]): Promise<T[]> {
    return this.offers.aggregate<T>(pipeline).exec();
  }

  /**
   * Runs a read-only pipeline over the products; it starts from the `products` collection, so a first `$match` may
   * use `$text` (the text index on name and description).
   */
  aggregateProducts<T>(pipeline: PipelineStage[]): Promise<T[]> {
    return this.products.aggregate<T>(pipeline).exec();
  }

  async skuExists(id: Types.ObjectId): Promise<boolean> {
    return Boolean(await this.skus.exists({ _id: id }).exec());
  }

  attribute(id: Types.ObjectId): Promise<AttributeRecord | null> {
    return this.attributes.findById(id).lean<AttributeRecord>().exec();
  }
}
