import { TestApp } from '../../support/test-app';

export const STOREFRONT = 'ecomRemainsSearchEngineServiceImpl';

export interface ListedOffer {
  offerId: string;
  price: number;
  currency: string;
  quantity: number;
}

export interface ListedProduct {
  id: string;
  name: string;
  cheapestOffer: ListedOffer | null;
}

export interface ProductDetail {
  id: string;
  name: string;
  offers: ListedOffer[];
}

/** The guest's product listing (no token), searched for `q`. */
export async function listProducts(t: TestApp, request: object): Promise<{ items: ListedProduct[]; total: number }> {
  const { body } = await t.callBean(STOREFRONT, 'listProducts', [request]).expect(200);
  return body as { items: ListedProduct[]; total: number };
}

/** The guest's product detail page. */
export async function productDetail(t: TestApp, productId: string): Promise<ProductDetail> {
  const { body } = await t.callBean(STOREFRONT, 'getProductDetail', [productId]).expect(200);
  return body as ProductDetail;
}

/** Units of the offer for sale now, as the product detail shows them to everyone. */
export async function availableNow(t: TestApp, productId: string, offerId: string): Promise<number> {
  const offer = (await productDetail(t, productId)).offers.find((candidate) => candidate.offerId === offerId);
  if (!offer) throw new Error(`Offer ${offerId} is not on the detail of product ${productId}`);
  return offer.quantity;
}
