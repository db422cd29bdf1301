import { Types } from 'mongoose';
import { AttributeType } from './attribute-type';
import { Attribute } from './attribute.schema';
import { Category } from './category.schema';
import { ProductDocument } from './product.schema';
import { Sku } from './sku.schema';
import { ProductView, toProductView } from './product.view';

type Stored<T> = T & { _id: Types.ObjectId };

export interface CategoryView {
  id: string;
  name: string;
  parentId: string | null;
  position: number;
}

/** A category with its subcategories, siblings by `position`, then name. */
export interface CategoryNode extends CategoryView {
  children: CategoryNode[];
}

export interface AdminAttributeView {
  id: string;
  code: string;
  name: string;
  type: AttributeType;
  unit: string | null;
}

export interface AdminSkuView {
  id: string;
  productId: string;
  code: string;
  name: string;
  attributes: { attributeId: string; values: string[] }[];
  weightGrams: number | null;
}

/** A product as an ADMIN manages it: drafts too, with its content per language, slug and SKUs. */
export interface AdminProductView extends ProductView {
  slug: string | null;
  translations: { lang: string; name: string; description: string }[];
  skus: AdminSkuView[];
}

export function toCategoryView(category: Stored<Category>): CategoryView {
  return {
    id: String(category._id),
    name: category.name,
    parentId: category.parent ? String(category.parent) : null,
    position: category.position,
  };
}

export function toAttributeView(attribute: Stored<Attribute>): AdminAttributeView {
  return {
    id: String(attribute._id),
    code: attribute.code,
    name: attribute.name,
    type: attribute.type,
    unit: attribute.unit ?? null,
  };
}

export function toSkuView(sku: Stored<Sku>): AdminSkuView {
  return {
    id: String(sku._id),
    productId: String(sku.product),
    code: sku.code,
    name: sku.name,
    attributes: (sku.attributes ?? []).map(({ attribute, values }) => ({ attributeId: String(attribute), values })),
    weightGrams: sku.weightGrams ?? null,
  };
}

export function toAdminProductView(product: ProductDocument, skus: Stored<Sku>[]): AdminProductView {
  return {
    ...toProductView(product),
    slug: product.slug ?? null,
    translations: product.translations.map(({ lang, name, description }) => ({ lang, name, description })),
    skus: skus.map(toSkuView),
  };
}

/** How many names a 409 lists before it says how many more there are. */
const NAMED_IN_CONFLICT = 5;

/** The first names, quoted, then how many more: for 409 messages naming what references an entity. */
export function listed(names: string[]): string {
  const shown = names.slice(0, NAMED_IN_CONFLICT).map((name) => `"${name}"`);
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** The fields that are set: a partial update leaves the others as they are. */
export function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
