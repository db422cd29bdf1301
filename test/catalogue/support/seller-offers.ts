import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Role } from '../../../src/common/principal';
import { SellerSku } from '../../../src/services/catalogue/seller-sku.schema';
import { addWarehouseFor, onboardSeller } from '../../support/marketplace';
import { TestApp } from '../../support/test-app';

export const OFFERS = '/api/v1/catalogue/offers';
export const MY_OFFERS = '/api/v1/catalogue/sellers/me/offers';

export interface SellerAccount {
  userId: string;
  token: string;
  sellerId: string;
  /** A shipping address of the seller, added through the geolocation bean. */
  warehouseId: string;
}

export interface OfferBody {
  id: string;
  sellerId: string;
  skuId: string;
  productId: string;
  price: number;
  currency: string;
  active: boolean;
  quantity: number;
  reserved: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
}

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** A user account acting for a new seller (onboarded as operators do) with one warehouse it added itself. */
export async function createSellerAccount(t: TestApp): Promise<SellerAccount> {
  const tag = randomUUID().slice(0, 8);
  const user = await t.createUser({ username: `seller-${tag}`, role: Role.USER });
  const sellerId = await onboardSeller(t, user, `Nursery ${tag}`);
  const warehouseId = await addWarehouse(t, user.token, sellerId);
  return { userId: user.id, token: user.token, sellerId, warehouseId };
}

/** A warehouse in NL that the seller (by `token`) adds itself; its id. */
export function addWarehouse(t: TestApp, token: string, sellerId: string): Promise<string> {
  return addWarehouseFor(t, sellerId, 'NL', token);
}

/** A published product made through its REST API, with one SKU made through `catalogueAdminServiceImpl`. */
export async function createSku(t: TestApp, name = `Fern ${randomUUID().slice(0, 8)}`) {
  const product = await t.http
    .post('/api/v1/catalogue/products')
    .set('Authorization', `Bearer ${t.tokenFor(Role.ADMIN)}`)
    .send({ name, published: true, geneticType: `type-${randomUUID().slice(0, 8)}` })
    .expect(201);
  const body = product.body as { id: string; name: string; geneticType: string };
  const variant = { productId: body.id, code: `C-${randomUUID()}`, name: 'Pot 12' };
  const admin = { token: t.tokenFor(Role.ADMIN) };
  const sku = await t.callBean('catalogueAdminServiceImpl', 'createSku', [variant], admin).expect(200);
  const skuId = (sku.body as { id: string }).id;
  return { productId: body.id, productName: body.name, geneticType: body.geneticType, skuId };
}

/**
 * An offer as stored before warehouses existed: units for sale but no stock per warehouse. No call makes one any
 * more (offers are made with their warehouse stock), so only the model can, for the tests of how such offers migrate.
 */
export async function createOfferWithoutWarehouseStock(t: TestApp, sellerId: string, quantity: number) {
  const { productId, skuId } = await createSku(t);
  const offer = await model<SellerSku>(t, SellerSku.name).create({
    seller: sellerId,
    sku: skuId,
    product: productId,
    price: 1250,
    currency: 'EUR',
    quantity,
  });
  return { sellerSkuId: String(offer._id), sellerId };
}

export function authed(test: request.Test, token?: string): request.Test {
  return token ? test.set('Authorization', `Bearer ${token}`) : test;
}

export function createOfferCall(t: TestApp, body: object, token?: string): request.Test {
  return authed(t.http.post(OFFERS).send(body), token);
}

export function patchOffer(t: TestApp, id: string, body: object, token?: string): request.Test {
  return authed(t.http.patch(`${OFFERS}/${id}`).send(body), token);
}

export function setStock(t: TestApp, id: string, warehouseId: string, quantity: unknown, token?: string) {
  return authed(t.http.put(`${OFFERS}/${id}/stock/${warehouseId}`).send({ quantity }), token);
}

export function adjustStock(t: TestApp, id: string, warehouseId: string, delta: unknown, token?: string) {
  return authed(t.http.post(`${OFFERS}/${id}/stock/${warehouseId}/adjust`).send({ delta }), token);
}

/** The offer as stored (for the concurrency counts). */
export async function storedOffer(t: TestApp, id: string) {
  return (await model<SellerSku>(t, SellerSku.name).findById(id).lean().exec())!;
}
