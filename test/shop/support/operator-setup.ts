import { Role } from '../../../src/common/principal';
import { TestApp } from '../../support/test-app';
import { Person } from './people';

/*
 * What happens before a seller can sell, through the operator's and the seller's APIs (no model writes): the seller
 * applies and the operator approves it (`sellerOnboardingServiceImpl`), and the operator adds a product with its SKU
 * to the catalogue (`catalogueAdminServiceImpl`, ADMIN only).
 */

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
