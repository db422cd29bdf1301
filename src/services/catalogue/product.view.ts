import { ProductDocument } from './product.schema';

export interface ProductView {
  id: string;
  name: string;
  description: string;
  images: string[];
  categories: string[];
  attributes: { attributeId: string; values: string[] }[];
  geneticType: string | null;
  countryOfOrigin: string | null;
  published: boolean;
}

export function toProductView(product: ProductDocument): ProductView {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    images: product.images,
    categories: product.categories,
    attributes: product.attributes.map(({ attribute, values }) => ({ attributeId: String(attribute), values })),
    geneticType: product.geneticType ?? null,
    countryOfOrigin: product.countryOfOrigin ?? null,
    published: product.published,
  };
}
