import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage, Types } from 'mongoose';
import { Attribute, AttributeType } from './attribute.schema';
import { SellerSku } from './seller-sku.schema';
import { Sku } from './sku.schema';

/** An attribute as stored: what a storefront filter is named and measured in. */
export type AttributeRecord = Attribute & { _id: Types.ObjectId };

/**
 * The catalogue's read port for the storefront besides its index (`StorefrontReader`): a seller's own offers
 * (aggregated over the `seller` index), and the SKUs and attributes that narrow and label filters.
 */
@Injectable()
export class OfferFacets {
  constructor(
    @InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
  ) {}

  /** Runs a read-only pipeline over the offers; it starts from the `sellerskus` collection. */
  aggregate<T>(pipeline: PipelineStage[]): Promise<T[]> {
    return this.offers.aggregate<T>(pipeline).exec();
  }

  async skuExists(id: Types.ObjectId): Promise<boolean> {
    return Boolean(await this.skus.exists({ _id: id }).exec());
  }

  attribute(id: Types.ObjectId): Promise<AttributeRecord | null> {
    return this.attributes.findById(id).lean<AttributeRecord>().exec();
  }

  /** The attributes of one type (OPTION or VALUE) by id, through the `type` index. */
  async attributesOfType(type: AttributeType): Promise<Map<string, AttributeRecord>> {
    const found = await this.attributes.find({ type }).lean<AttributeRecord[]>().exec();
    return new Map(found.map((attribute) => [String(attribute._id), attribute]));
  }
}
