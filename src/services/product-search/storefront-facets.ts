import { Injectable } from '@nestjs/common';
import { attributeKey, facetsOf, splitFacetKey, StorefrontEntry } from '../catalogue/storefront-entry';
import { StorefrontReader } from '../catalogue/storefront-reader';
import { FacetCount } from './facet-pipelines';
import { FacetScope } from './facet-scope.service';

/**
 * Filter counts: the number of listed products per value of a facet (`origin`, `seller`, `genetic`, `attribute`,
 * `value:<attribute id>`). Over the whole catalogue they are the counters the index keeps per write; narrowed to one
 * SKU they are counted over the few entries offering that SKU in stock (found through their `inStockSkus` index).
 */
@Injectable()
export class StorefrontFacets {
  constructor(
    private readonly reader: StorefrontReader,
    private readonly scope: FacetScope,
  ) {}

  /** `skuId` blank: the whole catalogue; else only that SKU's in-stock offers (400 malformed, 404 unknown). */
  async counts(facet: string, skuId: string): Promise<FacetCount[]> {
    const sku = this.scope.skuId(skuId);
    if (!sku) return (await this.reader.counters(facet)).map(({ value, count }) => ({ _id: value, count }));
    const entries = await this.reader.withSkuInStock(sku);
    if (entries.length === 0) await this.scope.assertSkuExists(sku, skuId);
    return countKeys(
      entries.flatMap((entry) => skuScopedFacets(entry, String(sku))),
      facet,
    );
  }
}

/** The facets of one product as its offers of one SKU give them: that SKU's attributes and sellers only. */
function skuScopedFacets(entry: StorefrontEntry, skuId: string): string[] {
  const offers = entry.offers.filter((offer) => String(offer.sku) === skuId && offer.quantity > 0);
  const own = entry.attributes.flatMap((a) => a.values.map((value) => attributeKey(a.attribute, value)));
  const attributeKeys = [...new Set([...own, ...offers.flatMap((offer) => offer.keys)])];
  return facetsOf({ countryOfOrigin: entry.countryOfOrigin, geneticType: entry.geneticType, attributeKeys }, offers);
}

function countKeys(keys: string[], facet: string): FacetCount[] {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const split = splitFacetKey(key);
    if (split.facet === facet) counts.set(split.value, (counts.get(split.value) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ _id: value, count }));
}
