import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Product } from '../../../src/services/catalogue/product.schema';
import { SellerSku } from '../../../src/services/catalogue/seller-sku.schema';
import { Seller } from '../../../src/services/catalogue/seller.schema';
import { Sku } from '../../../src/services/catalogue/sku.schema';
import { TestApp } from '../../support/test-app';

export interface OfferOptions {
  price?: number;
  currency?: string;
  quantity?: number;
  /** The user account acting for the seller. */
  sellerUserId?: string;
  /** Reuse a seller (several offers of one seller). */
  sellerId?: string;
  /** Country of a new seller (its parcels leave from there); NL unless given. */
  sellerCountry?: string;
  /** Shipping weight of the SKU; none (the default per item) unless given. */
  weightGrams?: number;
}

export interface Offer {
  sellerSkuId: string;
  sellerId: string;
  price: number;
  currency: string;
}

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** A published product with one SKU offered by a (new) seller: the catalogue data a buyer orders from. */
export async function createOffer(t: TestApp, options: OfferOptions = {}): Promise<Offer> {
  const { price = 1250, currency = 'EUR', quantity = 10 } = options;
  const tag = randomUUID().slice(0, 8);
  const product = await model<Product>(t, Product.name).create({ name: `Fern ${tag}`, published: true });
  const { weightGrams } = options;
  const sku = await model<Sku>(t, Sku.name).create({
    product: product._id,
    code: `F-${tag}`,
    name: 'Young plant',
    weightGrams,
  });
  const sellerId =
    options.sellerId ?? (await createSeller(t, `Nursery ${tag}`, options.sellerUserId, options.sellerCountry));
  const offer = await model<SellerSku>(t, SellerSku.name).create({
    seller: sellerId,
    sku: sku._id,
    product: product._id,
    price,
    currency,
    quantity,
  });
  return { sellerSkuId: String(offer._id), sellerId, price, currency };
}

async function createSeller(t: TestApp, name: string, userId?: string, country = 'NL'): Promise<string> {
  return String((await model<Seller>(t, Seller.name).create({ name, country, userId }))._id);
}

/** Units for sale and units reserved by orders not shipped yet. */
export async function stockFiguresOf(t: TestApp, sellerSkuId: string): Promise<{ quantity: number; reserved: number }> {
  const offer = await model<SellerSku>(t, SellerSku.name).findById(sellerSkuId).lean().exec();
  return { quantity: offer!.quantity, reserved: offer!.reserved ?? 0 };
}

export async function stockOf(t: TestApp, sellerSkuId: string): Promise<number> {
  const offer = await model<SellerSku>(t, SellerSku.name).findById(sellerSkuId).lean().exec();
  return offer!.quantity;
}
