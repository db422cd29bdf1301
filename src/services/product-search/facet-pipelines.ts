import { PipelineStage, Types } from 'mongoose';
import { literalMatch } from '../../common/search';
import { AttributeType } from '../catalogue/attribute-type';

/** One entry of a storefront filter: the value to filter by, what to show, and how many products have it. */
export interface Facet {
  value: string;
  label: string;
  count: number;
}

/** A grouping result before labels are attached. */
export interface FacetCount {
  _id: unknown;
  count: number;
  label?: string;
}

/** What each product row carries besides the product, for the facets that need it. */
type Collect = 'offers' | 'sellers' | 'skus';

const ACCUMULATORS: Record<Collect, Record<string, unknown>> = {
  offers: { $sum: 1 },
  sellers: { $addToSet: '$seller' },
  skus: { $addToSet: '$sku' },
};

/**
 * In-stock active offers (optionally of one SKU) grouped per product and joined to it when published: the base of
 * every facet, one row per product (`_id`, `product`: the product document, and the `collect`ed `offers` count,
 * `sellers` or `skus` ids). The first `$match` is on indexed offer fields (`sku`, `quantity`; `active` is checked on
 * the offers found), the join is on the
 * products' `_id`, and grouping first keeps it to one look-up per product, so every count below is a `$sum`.
 */
export function productsInStock(skuId?: Types.ObjectId, collect: Collect[] = []): PipelineStage[] {
  const accumulators = Object.fromEntries(collect.map((name) => [name, ACCUMULATORS[name]]));
  return [
    { $match: { ...(skuId ? { sku: skuId } : {}), quantity: { $gt: 0 }, active: { $ne: false } } },
    { $group: { _id: '$product', ...accumulators } },
    { $lookup: { from: 'products', localField: '_id', foreignField: '_id', as: 'product' } },
    { $unwind: '$product' },
    { $match: { 'product.published': true } },
  ];
}

/** Counts the product rows per value of `field` (a path; an array counts each of its values once). */
export function countProductsBy(field: string): PipelineStage[] {
  return [
    { $unwind: `$${field}` },
    { $match: { [field]: { $nin: [null, ''] } } },
    { $group: { _id: `$${field}`, count: { $sum: 1 } } },
  ];
}

/** Needs rows with `sellers`: each product's distinct seller countries, as `countries`. */
export function sellerCountries(): PipelineStage[] {
  return [
    { $lookup: { from: 'sellers', localField: 'sellers', foreignField: '_id', as: 'sellers' } },
    { $project: { countries: { $setUnion: ['$sellers.country'] } } },
  ];
}

/**
 * Needs rows with `skus`: the attribute entries (`{attribute, values}`) of each product and of its in-stock SKUs,
 * as `attributes`, only those of `attribute` when given.
 */
function attributeEntries(attribute?: Types.ObjectId): PipelineStage[] {
  const skuEntries = flatten('$skus.attributes');
  const all = { $concatArrays: [{ $ifNull: ['$product.attributes', []] }, skuEntries] };
  const entries = attribute ? { $filter: { input: all, cond: { $eq: ['$$this.attribute', attribute] } } } : all;
  return [
    { $lookup: { from: 'skus', localField: 'skus', foreignField: '_id', as: 'skus' } },
    { $project: { attributes: entries } },
  ];
}

/**
 * Needs rows with `skus`: per attribute with at least one value, the products having it, joined to the
 * attribute (`_id` → its id, `label` → its name), keeping those of `type`. Unwinding the entries and collecting
 * product ids per attribute measured cheaper than deduplicating each product's attribute ids with set expressions.
 */
export function attributesOfType(type: AttributeType): PipelineStage[] {
  return [
    ...attributeEntries(),
    { $unwind: '$attributes' },
    { $match: { 'attributes.values.0': { $exists: true } } },
    { $group: { _id: '$attributes.attribute', products: { $addToSet: '$_id' } } },
    { $lookup: { from: 'attributes', localField: '_id', foreignField: '_id', as: 'attribute' } },
    { $unwind: '$attribute' },
    { $match: { 'attribute.type': type } },
    { $project: { count: { $size: '$products' }, label: '$attribute.name' } },
  ];
}

/** Needs rows with `skus`: per value of `attribute`, the products having it (from the product or its SKUs). */
export function valuesOfAttribute(attribute: Types.ObjectId): PipelineStage[] {
  return [
    ...attributeEntries(attribute),
    { $project: { values: { $setUnion: [flatten('$attributes.values')] } } },
    ...countProductsBy('values'),
  ];
}

/** An expression concatenating the arrays in the array `path` resolves to. */
function flatten(path: string) {
  return { $reduce: { input: path, initialValue: [], in: { $concatArrays: ['$$value', '$$this'] } } };
}

/** All offers of one seller (also sold out or unpublished), labelled "product – SKU", counting their stock. */
export function offersOfSeller(sellerId: Types.ObjectId): PipelineStage[] {
  return [
    { $match: { seller: sellerId } },
    { $lookup: { from: 'products', localField: 'product', foreignField: '_id', as: 'product' } },
    { $lookup: { from: 'skus', localField: 'sku', foreignField: '_id', as: 'sku' } },
    { $unwind: '$product' },
    { $unwind: '$sku' },
    { $project: { label: { $concat: ['$product.name', ' – ', '$sku.name'] }, count: '$quantity' } },
  ];
}

/**
 * Products with in-stock offers whose name contains `searchTerm` literally (any case; blank: all), counting
 * their in-stock offers. The term stays a literal, case-insensitive substring match: no index serves one.
 */
export function productsMatching(searchTerm?: string): PipelineStage[] {
  const term = searchTerm?.trim();
  return [
    ...productsInStock(undefined, ['offers']),
    ...(term ? [{ $match: { 'product.name': literalMatch(term) } }] : []),
    { $project: { label: '$product.name', count: '$offers' } },
  ];
}
