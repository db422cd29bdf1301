import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { runSearch, SearchPlan } from '../../common/search';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { Product, ProductDocument } from './product.schema';

/**
 * The only code that writes the `products` collection (checked by `test/architecture/collection-writers.spec.ts`).
 * Changes are saved on the product document read by {@link find}, as the admin did before it had a repository: the
 * schema's `save` hooks refresh the product's storefront entries, and a slug in use rejects with a duplicate-key error.
 */
@Injectable()
export class ProductRepository {
  constructor(@InjectModel(Product.name) private readonly products: Model<Product>) {}

  /** The product, or null for an unknown id. */
  find(id: Types.ObjectId): Promise<ProductDocument | null> {
    return this.products.findById(id).exec();
  }

  async exists(id: Types.ObjectId): Promise<boolean> {
    return Boolean(await this.products.exists({ _id: id }).exec());
  }

  /** A page of a search request over every product (drafts included), and how many match in all. */
  async search(plan: SearchPlan): Promise<{ products: ProductDocument[]; total: number }> {
    const { content, total } = await runSearch<Product & { _id: Types.ObjectId }>(this.products, plan);
    return { products: content.map((stored) => this.products.hydrate(stored)), total };
  }

  /** Fields left out take the schema's defaults; rejects with a duplicate-key error for a slug in use. */
  create(product: Partial<Product>): Promise<ProductDocument> {
    return this.products.create(product);
  }

  /** Sets the given fields; rejects with a duplicate-key error for a slug in use. */
  async update(product: ProductDocument, fields: Partial<Product>): Promise<void> {
    product.set(fields);
    await product.save();
  }

  async setPublished(product: ProductDocument, published: boolean): Promise<void> {
    product.published = published;
    await product.save();
  }

  /** Replaces the product's content in other languages. */
  async setTranslations(product: ProductDocument, translations: Product['translations']): Promise<void> {
    product.translations = translations;
    await product.save();
  }

  async delete(id: Types.ObjectId): Promise<void> {
    await this.products.deleteOne({ _id: id }).exec();
  }

  /** Fixed records (the demo data) whose id is not there yet; see {@link insertMissing}. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.products, records);
  }
}
