import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { Sku } from './sku.schema';

export type StoredSku = Sku & { _id: Types.ObjectId };

/** What may change of a SKU: everything but its product. */
export type SkuChange = Partial<Omit<Sku, 'product'>>;

/**
 * The only code that writes the `skus` collection (checked by `test/architecture/collection-writers.spec.ts`).
 * Every write goes through the SKU model, whose hooks refresh the storefront entries of the SKUs' products.
 */
@Injectable()
export class SkuRepository {
  constructor(@InjectModel(Sku.name) private readonly skus: Model<Sku>) {}

  /** The SKU, or null for an unknown id. */
  find(id: Types.ObjectId): Promise<StoredSku | null> {
    return this.skus.findById(id).lean<StoredSku>().exec();
  }

  ofProduct(product: Types.ObjectId): Promise<StoredSku[]> {
    return this.ofProducts([product]);
  }

  /** The SKUs of these products by code, from one query on the `product` index. */
  ofProducts(products: Types.ObjectId[]): Promise<StoredSku[]> {
    return this.skus
      .find({ product: { $in: products } })
      .sort({ code: 1 })
      .lean<StoredSku[]>()
      .exec();
  }

  /** Rejects with a duplicate-key error for a code in use. */
  async create(sku: Sku): Promise<StoredSku> {
    return (await this.skus.create(sku)).toObject<StoredSku>();
  }

  /** The SKU after the change, or null for an unknown id; rejects with a duplicate-key error for a code in use. */
  update(id: Types.ObjectId, change: SkuChange): Promise<StoredSku | null> {
    return this.skus
      .findByIdAndUpdate(id, { $set: change }, { returnDocument: 'after', runValidators: true })
      .lean<StoredSku>()
      .exec();
  }

  async delete(skus: StoredSku[]): Promise<void> {
    await this.skus.deleteMany({ _id: { $in: skus.map((sku) => sku._id) } }).exec();
  }

  /** Puts deleted SKUs back as they were, same ids (a delete that turned out to race with a new offer). */
  async restore(skus: StoredSku[]): Promise<void> {
    await this.skus.insertMany(skus);
  }

  /** Fixed records (the demo data) whose id is not there yet; see {@link insertMissing}. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.skus, records);
  }
}
