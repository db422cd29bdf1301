import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { Role } from '../../../src/common/principal';
import { SellerSku } from '../../../src/services/catalogue/seller-sku.schema';
import { Actor, addToCatalogue, addWarehouseFor, onboardSeller } from '../../support/marketplace';
import { TestApp } from '../../support/test-app';

export interface OfferOptions {
  price?: number;
  currency?: string;
  quantity?: number;
  /** The account acting for the seller: it applies as a seller once, later offers reuse its seller. */
  sellerUser?: Actor;
  /** Reuse a seller (several offers of one seller). */
  sellerId?: string;
  /** Country of a new seller and its warehouse (its parcels leave from there); NL unless given. */
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

/** The seller each account was approved as, and each seller's warehouse, per app. */
const sellersOf = new WeakMap<TestApp, Map<string, string>>();
const warehousesOf = new WeakMap<TestApp, Map<string, string>>();

const memo = <V>(maps: WeakMap<TestApp, Map<string, V>>, t: TestApp): Map<string, V> =>
  maps.get(t) ?? maps.set(t, new Map()).get(t)!;

/**
 * A published product with one SKU, offered with stock by a seller: the catalogue data a buyer orders from, made as
 * the operator and a seller make it (catalogue management, seller onboarding, an offer with stock at a warehouse).
 */
export async function createOffer(t: TestApp, options: OfferOptions = {}): Promise<Offer> {
  const { price = 1250, currency = 'EUR', quantity = 10, weightGrams } = options;
  const tag = randomUUID().slice(0, 8);
  const { skuId } = await addToCatalogue(t, `Fern ${tag}`, `F-${tag}`, { name: 'Young plant', weightGrams });
  const sellerId = options.sellerId ?? (await sellerFor(t, tag, options));
  const warehouseId = await warehouseOf(t, sellerId, options.sellerCountry ?? 'NL');
  const { body } = await t.http
    .post('/api/v1/catalogue/offers')
    .set('Authorization', `Bearer ${t.tokenFor(Role.ADMIN)}`)
    .send({ sellerId, skuId, price, currency, stock: [{ warehouseId, quantity }] })
    .expect(201);
  return { sellerSkuId: (body as { id: string }).id, sellerId, price, currency };
}

/** The seller of `sellerUser` (onboarded at its first offer), else a new seller with an account of its own. */
async function sellerFor(t: TestApp, tag: string, { sellerUser, sellerCountry }: OfferOptions): Promise<string> {
  const sellers = memo(sellersOf, t);
  const user = sellerUser ?? (await t.createUser({ username: `nursery-${tag}`, role: Role.USER }));
  const known = sellers.get(user.id);
  if (known) return known;
  const sellerId = await onboardSeller(t, user, `Nursery ${tag}`, sellerCountry);
  sellers.set(user.id, sellerId);
  return sellerId;
}

async function warehouseOf(t: TestApp, sellerId: string, country: string): Promise<string> {
  const warehouses = memo(warehousesOf, t);
  const known = warehouses.get(sellerId);
  if (known) return known;
  const warehouseId = await addWarehouseFor(t, sellerId, country);
  warehouses.set(sellerId, warehouseId);
  return warehouseId;
}

/** Stock is read back from the offer's document: what the tests check, not how they set up. */
const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** Units for sale and units reserved by orders not shipped yet. */
export async function stockFiguresOf(t: TestApp, sellerSkuId: string): Promise<{ quantity: number; reserved: number }> {
  const offer = await model<SellerSku>(t, SellerSku.name).findById(sellerSkuId).lean().exec();
  return { quantity: offer!.quantity, reserved: offer!.reserved ?? 0 };
}

export async function stockOf(t: TestApp, sellerSkuId: string): Promise<number> {
  const offer = await model<SellerSku>(t, SellerSku.name).findById(sellerSkuId).lean().exec();
  return offer!.quantity;
}
