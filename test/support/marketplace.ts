import { Role } from '../../src/common/principal';
import { adminCall } from '../catalogue/support/catalogue-admin';
import { TestApp } from './test-app';

/** Whoever acts: a test user or a person signed up through the API. */
export interface Actor {
  id: string;
  token: string;
}

/*
 * What happens before a seller can sell, through the operator's and the seller's APIs (no model writes): the seller
 * applies and the operator approves it (`sellerOnboardingServiceImpl`), and the operator adds a product with its SKU
 * to the catalogue (`catalogueAdminServiceImpl`, ADMIN only).
 */

/** Well-formed tax ids of the countries tests sell from; elsewhere a plain tax number. */
const TAX_IDS: Record<string, string> = { NL: 'NL123456789B01', FR: 'FR12345678901', DE: 'DE123456789' };

/** A company in `country` (NL unless given): the seller's application and then its company profile. */
const companyOf = (name: string, country = 'NL') => ({
  companyName: name,
  street: 'Herengracht 1',
  postalCode: '1015 BA',
  city: 'Amsterdam',
  country,
  vatId: TAX_IDS[country] ?? 'TAX12345678',
});

/** `user` applies as the seller `name` (a company in `country`) and the operator approves it; the seller's id. */
export async function onboardSeller(t: TestApp, user: Actor, name: string, country?: string): Promise<string> {
  const applied = await t
    .callBean('sellerOnboardingServiceImpl', 'applyAsSeller', [companyOf(name, country)], { token: user.token })
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

export interface SkuOptions {
  /** The SKU's name; `Pot 12 cm` unless given. */
  name?: string;
  /** Shipping weight; none (the default per item) unless given. */
  weightGrams?: number;
}

/** A published product with one SKU, made by the operator through `catalogueAdminServiceImpl`. */
export async function addToCatalogue(
  t: TestApp,
  productName: string,
  skuCode: string,
  { name = 'Pot 12 cm', weightGrams }: SkuOptions = {},
): Promise<CatalogueEntry> {
  const description = 'A hardy fern for shady corners';
  const product = await asOperator(t, 'createProduct', [{ name: productName, description, published: true }]);
  const sku = await asOperator(t, 'createSku', [{ productId: product.id, code: skuCode, name, weightGrams }]);
  return { productId: product.id, productName, skuId: sku.id };
}

/** A warehouse of the seller in `country`, added by the operator unless another token (the seller's) is given; its id. */
export async function addWarehouseFor(
  t: TestApp,
  sellerId: string,
  country: string,
  token = t.tokenFor(Role.ADMIN),
): Promise<string> {
  const address = { street: 'Kwekerijweg', houseNumber: '4', postalCode: '1234 AB', city: 'Boskoop', country };
  const { body } = await t
    .callBean('geoLocationServiceImpl', 'addShippingAddress', [sellerId, address], { token })
    .expect(200);
  return (body as { id: string }).id;
}

async function asOperator(t: TestApp, functionName: string, args: unknown[]): Promise<{ id: string }> {
  return (await adminCall(t, functionName, args).expect(200)).body as { id: string };
}

/** The company a seller's documents name, as `sellerOnboardingServiceImpl.updateMyCompanyProfile` takes it. */
export const FERN_AND_MOSS = {
  companyName: 'Fern & Moss Nursery',
  street: 'Oudegracht 1',
  postalCode: '3511 AA',
  city: 'Utrecht',
  country: 'NL',
  vatId: 'NL123456789B01',
};

/** The seller (acting through `seller`) sets its company profile; the profile's id. */
export async function setCompanyProfile(t: TestApp, seller: Actor, company = FERN_AND_MOSS): Promise<string> {
  const { body } = await t
    .callBean('sellerOnboardingServiceImpl', 'updateMyCompanyProfile', [company], { token: seller.token })
    .expect(200);
  return (body as { profileId: string }).profileId;
}
