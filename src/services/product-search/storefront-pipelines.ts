import { PipelineStage, Types } from 'mongoose';
import { ListingSort } from './product-listing.dto';

/** An attribute filter with its id parsed: at least one of `values`. */
export interface AttributeCondition {
  attribute: Types.ObjectId;
  values: string[];
}

/** What a listing narrows by, validated. Prices are integer minor units of `currency`. */
export interface ListingCriteria {
  q?: string;
  conditions: AttributeCondition[];
  categories: string[];
  minPrice?: number;
  maxPrice?: number;
  currency?: string;
  sort?: ListingSort;
  page: number;
  size: number;
}

/** An offer as the listing and the detail show it, with its seller's name joined. */
export interface OfferRow {
  _id: Types.ObjectId;
  sku: Types.ObjectId;
  seller: Types.ObjectId;
  sellerName?: string;
  price: number;
  currency: string;
  quantity: number;
}

export interface ProductRow {
  _id: Types.ObjectId;
  name: string;
  description?: string;
  images?: string[];
  attributes?: AttributeCondition[];
  attributeRecords: AttributeRecordRow[];
}

export interface AttributeRecordRow {
  _id: Types.ObjectId;
  name: string;
  type: string;
  unit?: string;
}

export interface ListingRow extends ProductRow {
  offer: OfferRow;
}

export interface ListingResult {
  items: ListingRow[];
  total: { n: number }[];
}

export interface DetailRow extends ProductRow {
  skus: { _id: Types.ObjectId; code: string; name: string; attributes?: AttributeCondition[] }[];
  offers: OfferRow[];
}

/** Offers a seller has not withdrawn: a missing `active` flag counts as active. */
const ACTIVE = { active: { $ne: false } };

const SORTS: Record<ListingSort | 'relevance', Record<string, 1 | -1 | { $meta: 'textScore' }>> = {
  price: { 'offer.price': 1, _id: 1 },
  '-price': { 'offer.price': -1, _id: 1 },
  name: { name: 1, _id: 1 },
  '-name': { name: -1, _id: 1 },
  newest: { createdAt: -1, _id: -1 },
  relevance: { score: -1, _id: 1 },
};

/**
 * What a listing row keeps of its offer. Projected once for the page's rows rather than inside the offers join,
 * where a `$project` per joined product cost the embedded database as much as the join's other stages together.
 */
const OFFER_FIELDS = Object.fromEntries(
  ['_id', 'sku', 'seller', 'sellerName', 'price', 'currency', 'quantity'].map((field) => [`offer.${field}`, 1]),
);

/** The seller's name of each offer row (`seller` id), joined on the sellers' `_id`. */
const SELLER_NAME: PipelineStage.FacetPipelineStage[] = [
  { $lookup: { from: 'sellers', localField: 'offer.seller', foreignField: '_id', as: 'sellerRecord' } },
  { $set: { 'offer.sellerName': { $arrayElemAt: ['$sellerRecord.name', 0] } } },
];

/**
 * Published products matching the criteria, each with its cheapest active in-stock offer that meets the price,
 * currency and attribute conditions (an attribute condition holds when the product or the offer's SKU has one of
 * the values); products without one are left out. Runs on `products`: the first `$match` uses `$text` (text index)
 * or `published`; offers are joined on `seller_skus.product` ({product, quantity, price}), and sellers and attribute
 * names only for the page's rows. One aggregate answers the page and the total (`$facet`).
 */
export function listingPipeline(criteria: ListingCriteria): PipelineStage[] {
  const sort = SORTS[criteria.sort ?? (criteria.q ? 'relevance' : 'name')];
  return [
    { $match: productMatch(criteria) },
    ...(criteria.q ? [{ $set: { score: { $meta: 'textScore' } } }] : []),
    {
      $lookup: {
        from: 'seller_skus',
        localField: '_id',
        foreignField: 'product',
        let: productHolds(criteria.conditions),
        pipeline: cheapestOffer(criteria),
        as: 'offer',
      },
    },
    { $unwind: '$offer' },
    { $sort: sort },
    {
      $facet: {
        items: [
          { $skip: criteria.page * criteria.size },
          { $limit: criteria.size },
          ...SELLER_NAME,
          ...attributeNames('$attributes.attribute'),
          { $project: { name: 1, description: 1, images: 1, attributes: 1, attributeRecords: 1, ...OFFER_FIELDS } },
        ],
        total: [{ $count: 'n' }],
      },
    },
  ] as PipelineStage[];
}

function productMatch(criteria: ListingCriteria): Record<string, unknown> {
  return {
    // `$text` takes the words as data (no operators, no regular expression): no injection and no ReDoS.
    ...(criteria.q ? { $text: { $search: criteria.q } } : {}),
    published: true,
    ...(criteria.categories.length > 0 ? { categories: { $in: criteria.categories } } : {}),
  };
}

/** Inside the offers join: the cheapest offer of the product meeting the criteria, joined to its SKU if needed. */
function cheapestOffer(criteria: ListingCriteria): PipelineStage[] {
  const price = {
    ...(criteria.minPrice !== undefined ? { $gte: criteria.minPrice } : {}),
    ...(criteria.maxPrice !== undefined ? { $lte: criteria.maxPrice } : {}),
  };
  const match = {
    quantity: { $gt: 0 },
    ...ACTIVE,
    ...(Object.keys(price).length > 0 ? { price } : {}),
    ...(criteria.currency ? { currency: criteria.currency } : {}),
  };
  return [{ $match: match }, ...skuConditions(criteria.conditions), { $sort: { price: 1, _id: 1 } }, { $limit: 1 }];
}

/**
 * Whether the product itself meets each condition (`product0`, `product1`…), evaluated once per product for the
 * offers join instead of once per offer: then an offer's SKU is checked only for the conditions its product misses.
 */
function productHolds(conditions: AttributeCondition[]): Record<string, unknown> {
  const attributes = { $ifNull: ['$attributes', []] };
  return Object.fromEntries(conditions.map((condition, index) => [`product${index}`, hasValue(attributes, condition)]));
}

/** Keeps the offers for which every condition holds on the product (`$$product<i>`) or the offer's SKU. */
function skuConditions(conditions: AttributeCondition[]): PipelineStage[] {
  if (conditions.length === 0) return [];
  const skuAttributes = { $ifNull: [{ $arrayElemAt: ['$skuRecord.attributes', 0] }, []] };
  const holds = conditions.map((condition, index) => ({
    $or: [`$$product${index}`, hasValue(skuAttributes, condition)],
  }));
  return [
    { $lookup: { from: 'skus', localField: 'sku', foreignField: '_id', as: 'skuRecord' } },
    { $match: { $expr: { $and: holds } } },
  ];
}

/** Whether the attribute entries (`{attribute, values}`) give `condition.attribute` one of its values. */
function hasValue(entries: unknown, condition: AttributeCondition) {
  const matches = {
    $and: [
      { $eq: ['$$entry.attribute', condition.attribute] },
      { $gt: [{ $size: { $setIntersection: [{ $ifNull: ['$$entry.values', []] }, condition.values] } }, 0] },
    ],
  };
  return { $anyElementTrue: [{ $map: { input: entries, as: 'entry', in: matches } }] };
}

/** Joins the attributes named by `ids` (a path to their ids) as `attributeRecords`, for their names and units. */
function attributeNames(ids: unknown): PipelineStage.FacetPipelineStage[] {
  return [
    { $set: { attributeIds: ids } },
    { $lookup: { from: 'attributes', localField: 'attributeIds', foreignField: '_id', as: 'attributeRecords' } },
  ];
}

/**
 * One published product with its SKUs, its active offers (in stock or not) cheapest first with their sellers'
 * names, and the attributes its values and its SKUs' values name. Every join is on an indexed field
 * (`skus.product`, `seller_skus.product`, `_id`).
 */
export function detailPipeline(productId: Types.ObjectId): PipelineStage[] {
  const skuAttributeIds = {
    $reduce: { input: '$skus.attributes.attribute', initialValue: [], in: { $concatArrays: ['$$value', '$$this'] } },
  };
  return [
    { $match: { _id: productId, published: true } },
    { $lookup: { from: 'skus', localField: '_id', foreignField: 'product', as: 'skus' } },
    {
      $lookup: {
        from: 'seller_skus',
        localField: '_id',
        foreignField: 'product',
        pipeline: [
          { $match: ACTIVE },
          { $sort: { price: 1, _id: 1 } },
          { $lookup: { from: 'sellers', localField: 'seller', foreignField: '_id', as: 'sellerRecord' } },
          { $set: { sellerName: { $arrayElemAt: ['$sellerRecord.name', 0] } } },
          { $project: { sku: 1, seller: 1, sellerName: 1, price: 1, currency: 1, quantity: 1 } },
        ],
        as: 'offers',
      },
    },
    ...attributeNames({ $setUnion: [{ $ifNull: ['$attributes.attribute', []] }, skuAttributeIds] }),
  ] as PipelineStage[];
}
