import { PipelineStage, Types } from 'mongoose';

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
