import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../../../src/common/principal';
import { Sku } from '../../../src/services/catalogue/sku.schema';
import { TestApp } from '../../support/test-app';
import { Person } from './people';

/*
 * What happens before a seller can sell: the seller applies and the operator approves it
 * (`sellerOnboardingServiceImpl`), and the operator adds a product with its SKU to the catalogue. Where an API exists
 * it is used (products: `POST /api/v1/catalogue/products`, ADMIN only); SKUs have no API yet, so they are stored
 * through their model, as the demo seeder does.
 */

const model = <T>(t: TestApp, name: string): Model<T> => t.app.get<Model<T>>(getModelToken(name));

/** A Dutch company: the seller's application and then its company profile. */
const companyOf = (name: string) => ({
  companyName: name,
  street: 'Herengracht 1',
  postalCode: '1015 BA',
  city: 'Amsterdam',
  country: 'NL',
  vatId: 'NL123456789B01',
});

/** `user` applies as the seller `name` and the operator approves it; the seller's id. */
export async function onboardSeller(t: TestApp, user: Person, name: string): Promise<string> {
  const applied = await t
    .callBean('sellerOnboardingServiceImpl', 'applyAsSeller', [companyOf(name)], { token: user.token })
    .expect(200);
  const { body: approved } = await t
    .callBean('sellerOnboardingServiceImpl', 'approveSellerApplication', [(applied.body as { id: string }).id], {
      token: t.tokenFor(Role.ADMIN),
    })
    .expect(200);
  return (approved as { sellerId: string }).sellerId;
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
