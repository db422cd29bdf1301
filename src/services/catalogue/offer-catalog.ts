import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { SellerSku } from './seller-sku.schema';
import { codedError } from '../../common/errors/coded-exception';

/** An offer with what a cart shows of its product, SKU and seller. */
export interface OfferDetails {
  _id: Types.ObjectId;
  price: number;
  currency: string;
  /** Available to sell now: 0 for an inactive offer. */
  quantity: number;
  active: boolean;
  product: { _id: Types.ObjectId; name: string; published: boolean; images: string[] };
  sku: { _id: Types.ObjectId; name: string; code: string; weightGrams?: number };
  seller: { _id: Types.ObjectId; name: string; country: string };
}

const join = (from: string, localField: string) => [
  { $lookup: { from, localField, foreignField: '_id', as: localField } },
  { $unwind: `$${localField}` },
];

/** Reads offers (seller SKUs) with their product, SKU and seller in one aggregation. */
@Injectable()
export class OfferCatalog {
  constructor(@InjectModel(SellerSku.name) private readonly offers: Model<SellerSku>) {}

  async details(ids: Types.ObjectId[]): Promise<Map<string, OfferDetails>> {
    if (ids.length === 0) return new Map();
    const found = await this.offers
      .aggregate<OfferDetails>([
        { $match: { _id: { $in: ids } } },
        ...join('products', 'product'),
        ...join('skus', 'sku'),
        ...join('sellers', 'seller'),
        {
          $project: {
            price: 1,
            currency: 1,
            quantity: { $cond: [{ $eq: ['$active', false] }, 0, '$quantity'] },
            active: { $ne: ['$active', false] },
            product: { _id: 1, name: 1, published: 1, images: 1 },
            sku: { _id: 1, name: 1, code: 1, weightGrams: 1 },
            seller: { _id: 1, name: 1, country: 1 },
          },
        },
      ])
      .exec();
    return new Map(found.map((offer) => [String(offer._id), offer]));
  }

  /** The offer if it can be bought at all: 404 when it does not exist or its product is unpublished, 409 inactive. */
  async forSale(id: Types.ObjectId): Promise<OfferDetails> {
    const offer = (await this.details([id])).get(String(id));
    if (!offer || !offer.product.published) throw codedError('SKU_NOT_FOUND', `Seller SKU ${String(id)} not found`);
    if (!offer.active) throw codedError('NOT_FOR_SALE', `Seller SKU ${String(id)} is not for sale`);
    return offer;
  }
}
