import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../../../src/common/principal';
import { Seller } from '../../../src/services/catalogue/seller.schema';
import { TestApp } from '../../support/test-app';
import { Person } from './people';

/*
 * What the product requires of the shop's operator before a seller can sell, because it has no self-service for it
 * (issue 18 leaves these to the operator): onboarding a seller and adding a product with its SKU to the catalogue.
 * The catalogue goes through the operator's API (`catalogueAdminServiceImpl`, ADMIN only); sellers have no API yet
 * (branch backoffice-sellers brings it), so they are stored through their model, as the demo seeder does.
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

/** A published product with one SKU, made by the operator through `catalogueAdminServiceImpl`. */
export async function addToCatalogue(t: TestApp, productName: string, skuCode: string): Promise<CatalogueEntry> {
  const operator = (functionName: string, args: unknown[]) =>
    t.callBean('catalogueAdminServiceImpl', functionName, args, { token: t.tokenFor(Role.ADMIN) }).expect(200);
  const description = 'A hardy fern for shady corners';
  const { body: product } = await operator('createProduct', [{ name: productName, description, published: true }]);
  const productId = (product as { id: string }).id;
  const { body: sku } = await operator('createSku', [{ productId, code: skuCode, name: 'Pot 12 cm' }]);
  return { productId, productName, skuId: (sku as { id: string }).id };
}
