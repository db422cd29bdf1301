import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../../../src/common/principal';
import { Seller } from '../../../src/services/catalogue/seller.schema';
import { Sku } from '../../../src/services/catalogue/sku.schema';
import { TestApp } from '../../support/test-app';
import { Person } from './people';

/*
 * What the product requires of the shop's operator before a seller can sell, because it has no self-service for it
 * (issue 18 leaves these to the operator): onboarding a seller and adding a product with its SKU to the catalogue.
 * Where an API exists it is used (products: `POST /api/v1/catalogue/products`, ADMIN only); sellers and SKUs have
 * no API at all, so they are stored through their models, as the demo seeder does.
 */

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** Makes `user` the user acting for a new seller based in `country`; the seller's id. */
export async function onboardSeller(t: TestApp, user: Person, name: string, country = 'NL'): Promise<string> {
  const seller = await model<Seller>(t, Seller.name).create({ name, country, userId: user.id });
  return String(seller._id);
}

export interface CatalogueEntry {
  productId: string;
  productName: string;
  skuId: string;
}

/** A published product (through its ADMIN-only REST API) with one SKU (no API: through the model). */
export async function addToCatalogue(t: TestApp, productName: string, skuCode: string): Promise<CatalogueEntry> {
  const { body: product } = await t.http
    .post('/api/v1/catalogue/products')
    .set('Authorization', `Bearer ${t.tokenFor(Role.ADMIN)}`)
    .send({ name: productName, description: 'A hardy fern for shady corners', published: true })
    .expect(201);
  const productId = (product as { id: string }).id;
  const sku = await model<Sku>(t, Sku.name).create({ product: productId, code: skuCode, name: 'Pot 12 cm' });
  return { productId, productName, skuId: String(sku._id) };
}
