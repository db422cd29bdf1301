import { Injectable } from '@nestjs/common';
import { AttributeType } from '../catalogue/attribute-type';
import { AttributeRecord } from '../catalogue/offer-facets';
import { attributeKey, facetsOf, splitFacetKey } from '../catalogue/storefront-entry';
import { nameGramsOf } from '../catalogue/search-terms';
import { SkuScopeEntry, StorefrontReader } from '../catalogue/storefront-reader';
import { FacetAttributes } from './facet-attributes';
import { FacetCount } from './facet-pipelines';
import { FacetScope } from './facet-scope';

/**
 * Most rows a products list answers: the first listed products in name order. The answer has one row per product,
 * so without a bound it grows with the catalogue (5,000 rows at 100× the demo); a storefront narrows the list with
 * a search term (`getProductsListByRequestFilter`) instead of paging it. The demo catalogue lists 45.
 */
export const MAX_LISTED_PRODUCTS = 50;

/**
 * Filter counts: the number of listed products per value of a facet (`origin`, `seller`, `genetic`, `attribute`,
 * `value:<attribute id>`). Over the whole catalogue they are the counters the index keeps per write; narrowed to one
 * SKU they are counted over the few entries offering that SKU in stock (found through their `inStockSkus` index).
 * The products lists are read from the listed entries in name order, stopping after `MAX_LISTED_PRODUCTS`.
 */
@Injectable()
export class StorefrontFacets {
  constructor(
    private readonly reader: StorefrontReader,
    private readonly scope: FacetScope,
    private readonly attributes: FacetAttributes,
  ) {}

  /** `skuId` blank: the whole catalogue; else only that SKU's in-stock offers (400 malformed, 404 unknown). */
  async counts(facet: string, skuId: string): Promise<FacetCount[]> {
    const sku = this.scope.skuId(skuId);
    if (!sku) return (await this.reader.counters(facet)).map(toCount);
    const entries = await this.reader.withSkuInStock(sku, facet);
    if (entries.length === 0) await this.scope.assertSkuExists(sku, skuId);
    return countKeys(
      entries.flatMap((entry) => skuScopedFacets(entry, String(sku))),
      facet,
    );
  }

  /**
   * The counts of an attribute facet (`attribute`, `value:<attribute id>`) with the attributes of `type` by id. Over
   * the whole catalogue one query reads the counters and the attributes' revision, and the attributes come from
   * memory while it holds (`FacetAttributes`); narrowed to a SKU, the counts and the attributes are read at once.
   */
  async withAttributes(facet: string, skuId: string, type: AttributeType): Promise<AttributeCounts> {
    if (this.scope.skuId(skuId)) {
      const [counts, attributes] = await Promise.all([
        this.counts(facet, skuId),
        this.attributes.ofType(type, undefined),
      ]);
      return { counts, attributes };
    }
    const { counters, revision } = await this.reader.countersWithRevision(facet);
    return { counts: counters.map(toCount), attributes: await this.attributes.ofType(type, revision) };
  }

  /**
   * The first `MAX_LISTED_PRODUCTS` listed products in name order (code points, the index's order) whose name
   * contains `term` literally, ignoring case (blank: every name), labelled with the name and counting their in-stock
   * offers. A term of three characters or more is looked up by its trigrams; a shorter one (which most names
   * contain) is checked on the names read in order, in growing pages until enough are found or none are left.
   */
  async productsNamed(term: string): Promise<FacetCount[]> {
    const needle = term.toLowerCase();
    const grams = nameGramsOf(needle);
    const rows: FacetCount[] = [];
    for (let skip = 0, limit = MAX_LISTED_PRODUCTS; ; skip += limit, limit *= 2) {
      const page = await this.reader.listedNames(grams, skip, limit);
      for (const entry of page) {
        if (entry.name.toLowerCase().includes(needle)) {
          rows.push({ _id: entry._id, label: entry.name, count: entry.inStockOffers });
        }
      }
      if (rows.length >= MAX_LISTED_PRODUCTS || page.length < limit) return rows.slice(0, MAX_LISTED_PRODUCTS);
    }
  }
}

/** Counts of a facet, with the attributes that name and measure its values or rows. */
export interface AttributeCounts {
  counts: FacetCount[];
  attributes: Map<string, AttributeRecord>;
}

function toCount({ value, count }: { value: string; count: number }): FacetCount {
  return { _id: value, count };
}

/**
 * The facets of one product as its offers of one SKU give them: that SKU's attributes and sellers only. The entry
 * holds only the fields of the facet asked for (`withSkuInStock`), so only that facet's keys come out complete.
 */
function skuScopedFacets(entry: SkuScopeEntry, skuId: string): string[] {
  const offers = (entry.offers ?? []).filter((offer) => String(offer.sku) === skuId && offer.quantity > 0);
  const own = (entry.attributes ?? []).flatMap((a) => a.values.map((value) => attributeKey(a.attribute, value)));
  const attributeKeys = [...new Set([...own, ...offers.flatMap((offer) => offer.keys ?? [])])];
  const sellerCountries = offers.map((offer) => ({ sellerCountry: offer.sellerCountry ?? '' }));
  return facetsOf(
    { countryOfOrigin: entry.countryOfOrigin ?? null, geneticType: entry.geneticType ?? null, attributeKeys },
    sellerCountries,
  );
}

function countKeys(keys: string[], facet: string): FacetCount[] {
  const counts = new Map<string, number>();
  for (const key of keys) {
    const split = splitFacetKey(key);
    if (split.facet === facet) counts.set(split.value, (counts.get(split.value) ?? 0) + 1);
  }
  return [...counts].map(([value, count]) => ({ _id: value, count }));
}
