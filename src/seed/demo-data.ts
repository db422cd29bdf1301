import { Types } from 'mongoose';
import { ProfileType } from '../auth/profiles/profile-type';
import { AttributeType } from '../services/catalogue/attribute-type';
import { demoId } from './demo-id';
import { DEMO_PLANTS } from './demo-plants';
import { demoWarehouseId } from './demo-warehouses';

type WithId<T> = T & { _id: Types.ObjectId };

export interface DemoAttribute {
  code: string;
  name: string;
  type: AttributeType;
  unit?: string;
}
export interface DemoAttributeValue {
  attribute: Types.ObjectId;
  values: string[];
}
export interface DemoProduct {
  name: string;
  description: string;
  images: string[];
  categories: string[];
  attributes: DemoAttributeValue[];
  geneticType: string;
  countryOfOrigin: string;
  published: boolean;
}
export interface DemoSku {
  product: Types.ObjectId;
  code: string;
  name: string;
  attributes: DemoAttributeValue[];
}
export interface DemoSeller {
  name: string;
  country: string;
  currency: string;
  username: string;
}
export interface DemoSellerSku {
  seller: Types.ObjectId;
  sku: Types.ObjectId;
  product: Types.ObjectId;
  price: number;
  currency: string;
  quantity: number;
  /** All of it at the seller's demo warehouse, so Σ on hand = quantity + reserved (0) from the start. */
  stockByWarehouse: { warehouse: Types.ObjectId; onHand: number }[];
}
export interface DemoUser {
  username: string;
  email: string;
  profile: { type: ProfileType; displayName: string; country: string };
}

export interface DemoCatalogue {
  attributes: WithId<DemoAttribute>[];
  products: WithId<DemoProduct>[];
  skus: WithId<DemoSku>[];
  sellers: WithId<DemoSeller>[];
  sellerSkus: WithId<DemoSellerSku>[];
  /** Seller accounts first, then buyers. */
  users: DemoUser[];
}

const ATTRIBUTES: Record<string, DemoAttribute> = {
  light: { code: 'light', name: 'Light', type: AttributeType.OPTION },
  watering: { code: 'watering', name: 'Watering', type: AttributeType.OPTION },
  petSafe: { code: 'pet-safe', name: 'Pet safe', type: AttributeType.OPTION },
  height: { code: 'height', name: 'Height', type: AttributeType.VALUE, unit: 'cm' },
  hardiness: { code: 'hardiness', name: 'Hardy down to', type: AttributeType.VALUE, unit: '°C' },
  form: { code: 'form', name: 'Form', type: AttributeType.OPTION },
  potSize: { code: 'pot-size', name: 'Pot size', type: AttributeType.VALUE, unit: 'cm' },
};
const LIGHT = ['Full sun', 'Partial shade', 'Shade'];
const WATERING = ['Low', 'Moderate', 'High'];
const HEIGHTS = ['15', '30', '60', '90', '120', '180'];
const HARDINESS = ['-20', '-10', '-5', '0', '5', '10'];
const FORMS = ['Seeds', 'Cutting', 'Young plant', 'Mature plant'];
const POT_SIZES = ['6', '9', '12', '17', '24'];

const SELLERS: DemoSeller[] = [
  { name: 'Groene Vingers Kwekerij', country: 'NL', currency: 'EUR', username: 'seller.nl' },
  { name: 'Jardin des Plantes SARL', country: 'FR', currency: 'EUR', username: 'seller.fr' },
  { name: 'Tokyo Bonsai Garden', country: 'JP', currency: 'JPY', username: 'seller.jp' },
  { name: 'Prairie Greens Nursery', country: 'US', currency: 'USD', username: 'seller.us' },
];
const BUYERS = [
  { username: 'alice', displayName: 'Alice', country: 'DE' },
  { username: 'bruno', displayName: 'Bruno', country: 'IT' },
  { username: 'chiara', displayName: 'Chiara', country: 'ES' },
];

/** Minor units per euro cent, per currency (JPY has no minor unit: 1 EUR ≈ 160 JPY). */
const FROM_EURO_CENTS: Record<string, number> = { EUR: 1, USD: 1.1, JPY: 1.6 };

const value = (code: string, ...values: string[]): DemoAttributeValue => ({
  attribute: demoId(`attribute:${code}`),
  values,
});

/**
 * The plant marketplace, fully deterministic: the same call always gives the same records and ids. `scale` repeats
 * the plants (numbered copies: "Aloe vera 2", ...) with their SKUs and offers, for benchmarks on a larger catalogue
 * (scale 100: 5,000 products, 9,999 SKUs, 14,999 offers); scale 1 is the demo itself.
 */
export function buildDemoCatalogue(scale = 1): DemoCatalogue {
  const attributes = Object.values(ATTRIBUTES).map((a) => ({ _id: demoId(`attribute:${a.code}`), ...a }));
  const sellers = SELLERS.map((seller) => ({ _id: demoId(`seller:${seller.username}`), ...seller }));
  const products = Array.from({ length: DEMO_PLANTS.length * scale }, (_, index) => ({
    _id: demoId(`product:${index}`),
    ...product(plantCopy(index), index),
  }));
  const skus = products.flatMap((item, index) => skusOf(item._id, index));
  const sellerSkus = skus.flatMap((sku, index) => offersOf(sku, index, sellers));
  const users = [
    ...SELLERS.map(({ username, name, country }) => ({
      username,
      email: `${username}@plants.example.com`,
      profile: { type: ProfileType.COMPANY, displayName: name, country },
    })),
    ...BUYERS.map(({ username, displayName, country }) => ({
      username,
      email: `${username}@example.com`,
      profile: { type: ProfileType.BUYER, displayName, country },
    })),
  ];
  return { attributes, products, skus, sellers, sellerSkus, users };
}

/** The plant at `index`: the demo's own for the first copy, then numbered copies of it. */
function plantCopy(index: number): readonly string[] {
  const [name, ...facts] = DEMO_PLANTS[index % DEMO_PLANTS.length];
  const copy = Math.floor(index / DEMO_PLANTS.length);
  return [copy === 0 ? name : `${name} ${copy + 1}`, ...facts];
}

function product([name, geneticType, countryOfOrigin, category]: readonly string[], i: number): DemoProduct {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    name,
    description: `${name}: a favourite among ${category.toLowerCase()}, grown from ${geneticType.toLowerCase()} stock.`,
    images: [`https://images.example.com/plants/${slug}.jpg`],
    categories: [category],
    attributes: [
      value(ATTRIBUTES.light.code, LIGHT[i % 3]),
      value(ATTRIBUTES.watering.code, WATERING[(i * 7) % 3]),
      value(ATTRIBUTES.petSafe.code, i % 4 === 0 ? 'No' : 'Yes'),
      value(ATTRIBUTES.height.code, HEIGHTS[i % 6]),
      value(ATTRIBUTES.hardiness.code, HARDINESS[(i * 5) % 6]),
    ],
    geneticType,
    countryOfOrigin,
    // Every tenth plant is a draft, so that filters visibly leave unpublished products out.
    published: i % 10 !== 9,
  };
}

function skusOf(productId: Types.ObjectId, i: number): WithId<DemoSku>[] {
  return Array.from({ length: 1 + (i % 3) }, (_, j) => {
    const form = FORMS[(i + j) % 4];
    const pot = POT_SIZES[(i + 2 * j) % 5];
    const seeds = form === 'Seeds';
    const code = `PL-${String(i + 1).padStart(3, '0')}-${j + 1}`;
    return {
      _id: demoId(`sku:${code}`),
      product: productId,
      code,
      name: seeds ? 'Seeds, pack of 10' : `${form}, ${pot} cm pot`,
      attributes: seeds
        ? [value(ATTRIBUTES.form.code, form)]
        : [value(ATTRIBUTES.form.code, form), value(ATTRIBUTES.potSize.code, pot)],
    };
  });
}

/** One or two sellers per SKU; some offers are sold out (quantity 0). */
function offersOf(sku: WithId<DemoSku>, k: number, sellers: WithId<DemoSeller>[]): WithId<DemoSellerSku>[] {
  const offering = k % 2 === 0 ? [k % 4, (k + 1) % 4] : [k % 4];
  return offering.map((s) => {
    const seller = sellers[s];
    const euroCents = 450 + ((k * 137) % 3000);
    const quantity = (k * 7 + s * 3) % 13;
    return {
      _id: demoId(`offer:${sku.code}:${seller.username}`),
      seller: seller._id,
      sku: sku._id,
      product: sku.product,
      price: Math.round(euroCents * FROM_EURO_CENTS[seller.currency]),
      currency: seller.currency,
      quantity,
      stockByWarehouse: [{ warehouse: demoWarehouseId(seller.username), onHand: quantity }],
    };
  });
}
