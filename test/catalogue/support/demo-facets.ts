import { buildDemoCatalogue } from '../../../src/seed/demo-data';

/**
 * Expected facet counts computed straight from the demo data, independently of the aggregations under test:
 * for every in-stock offer of a published product, which values its product has.
 */
export const demo = buildDemoCatalogue();

type Offer = (typeof demo.sellerSkus)[number];

export function inStockOffers(skuId?: string): Offer[] {
  const published = new Set(demo.products.filter((p) => p.published).map((p) => String(p._id)));
  return demo.sellerSkus.filter(
    (offer) => offer.quantity > 0 && published.has(String(offer.product)) && (!skuId || String(offer.sku) === skuId),
  );
}

/** value → number of distinct products having it, over the given offers. */
export function countProducts(offers: Offer[], valuesOf: (offer: Offer) => string[]): Record<string, number> {
  const products = new Map<string, Set<string>>();
  for (const offer of offers) {
    for (const value of valuesOf(offer)) {
      const set = products.get(value) ?? new Set<string>();
      set.add(String(offer.product));
      products.set(value, set);
    }
  }
  return Object.fromEntries([...products].map(([value, set]) => [value, set.size]));
}

export const productOf = (offer: Offer) => demo.products.find((p) => p._id.equals(offer.product))!;
export const skuOf = (offer: Offer) => demo.skus.find((s) => s._id.equals(offer.sku))!;
export const sellerOf = (offer: Offer) => demo.sellers.find((s) => s._id.equals(offer.seller))!;
export const attributeId = (code: string) => String(demo.attributes.find((a) => a.code === code)!._id);

/** Values of one attribute on an offer: its product's and its SKU's. */
export function attributeValuesOf(offer: Offer, attribute: string): string[] {
  return [...productOf(offer).attributes, ...skuOf(offer).attributes]
    .filter((entry) => String(entry.attribute) === attribute)
    .flatMap((entry) => entry.values);
}

/** The facets as `{value: count}`, for comparing with expectations regardless of order. */
export function asCounts(facets: { value: string; count: number }[]): Record<string, number> {
  return Object.fromEntries(facets.map((facet) => [facet.value, facet.count]));
}
