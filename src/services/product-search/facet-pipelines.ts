import { PipelineStage, Types } from 'mongoose';
import { literalMatch } from '../../common/search';

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

/**
 * In-stock offers (optionally of one SKU) grouped per SKU and joined to their published product: the base of every
 * facet. Grouping first keeps the joins and unwinds that follow to one row per SKU instead of one per offer.
 * Each row: `_id` (the SKU id), `product` (the product document), `sellers` (ids) and `offers` (their number).
 */
export function offersInStock(skuId?: Types.ObjectId): PipelineStage[] {
  return [
    { $match: { quantity: { $gt: 0 }, ...(skuId ? { sku: skuId } : {}) } },
    {
      $group: { _id: '$sku', product: { $first: '$product' }, sellers: { $addToSet: '$seller' }, offers: { $sum: 1 } },
    },
    { $lookup: { from: 'products', localField: 'product', foreignField: '_id', as: 'product' } },
    { $unwind: '$product' },
    { $match: { 'product.published': true } },
  ];
}

/** Counts distinct products per value of `field` (an expression such as `$product.geneticType`). */
export function countProductsBy(field: string): PipelineStage[] {
  return [
    { $match: { [field.slice(1)]: { $nin: [null, ''] } } },
    { $group: { _id: field, products: { $addToSet: '$product._id' } } },
    { $project: { count: { $size: '$products' } } },
  ];
}

export function withSellers(): PipelineStage[] {
  return [
    { $lookup: { from: 'sellers', localField: 'sellers', foreignField: '_id', as: 'sellerDoc' } },
    { $unwind: '$sellerDoc' },
  ];
}

/**
 * One document per (product, attribute, value), from the product's attributes and the offered SKU's own;
 * only those of `attribute` when given.
 */
export function attributeValues(attribute?: Types.ObjectId): PipelineStage[] {
  return [
    { $lookup: { from: 'skus', localField: '_id', foreignField: '_id', as: 'skuDoc' } },
    { $unwind: '$skuDoc' },
    { $project: { product: 1, attributes: { $concatArrays: ['$product.attributes', '$skuDoc.attributes'] } } },
    { $unwind: '$attributes' },
    ...(attribute ? [{ $match: { 'attributes.attribute': attribute } }] : []),
    { $unwind: '$attributes.values' },
    { $project: { 'product._id': 1, attribute: '$attributes.attribute', value: '$attributes.values' } },
  ];
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

/** Products with in-stock offers whose name contains `searchTerm` literally (any case); blank: all. */
export function productsMatching(searchTerm?: string): PipelineStage[] {
  const term = searchTerm?.trim();
  return [
    ...offersInStock(),
    ...(term ? [{ $match: { 'product.name': literalMatch(term) } }] : []),
    { $group: { _id: '$product._id', label: { $first: '$product.name' }, count: { $sum: '$offers' } } },
  ];
}
