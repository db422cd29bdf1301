import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { parseSearchRequest, planSearch, SearchSpec } from '../../common/search';
import { NewPlantWebhook } from '../webhooks/new-plant-webhook';
import { CreateProductAdminDto, ProductTranslationDto, UpdateProductDto } from './catalogue-admin.dto';
import { AdminProductView, definedOnly, toAdminProductView } from './catalogue-admin.view';
import { CatalogueReferences } from './catalogue-references';
import { Product, ProductDocument } from './product.schema';
import { countryOfOrigin } from './product-creator';
import { ProductRepository } from './product.repository';
import { toProductView } from './product.view';
import { SkuAdmin } from './sku-admin';
import { SkuRepository } from './sku.repository';

/** Operators find products, drafts included, by name, description or slug, and filter by these fields. */
const SEARCH: SearchSpec = {
  searchableFields: ['name', 'description', 'slug'],
  filterableFields: [
    'name',
    'slug',
    'published',
    'categories',
    'geneticType',
    'countryOfOrigin',
    'createdAt',
    'updatedAt',
  ],
  defaultSort: { name: 1 },
  idFields: ['categories'],
};

export interface AdminProductPage {
  items: AdminProductView[];
  total: number;
}

/** What a change did: the product after it, and whether it went from draft (or unpublished) to published. */
export interface ProductChange {
  product: AdminProductView;
  newlyPublished: boolean;
}

/**
 * Products as an ADMIN manages them: drafts included, with content per language, slug, categories of the tree and
 * SKUs. A product that becomes published is announced as a New Plant, as one created published is.
 */
@Injectable()
export class ProductAdmin {
  constructor(
    private readonly products: ProductRepository,
    private readonly references: CatalogueReferences,
    private readonly skus: SkuRepository,
    private readonly skuAdmin: SkuAdmin,
    private readonly newPlantWebhook: NewPlantWebhook,
  ) {}

  async get(id: string): Promise<AdminProductView> {
    return this.view(await this.find(id));
  }

  /** A search request (DESIGN §6) over every product; each with its SKUs (one query for the page's). */
  async search(request: Record<string, unknown>): Promise<AdminProductPage> {
    const plan = planSearch(parseSearchRequest(request), SEARCH);
    const { products, total } = await this.products.search(plan);
    const skus = await this.skus.ofProducts(products.map((product) => product._id));
    const items = products.map((product) =>
      toAdminProductView(
        product,
        skus.filter((sku) => sku.product.equals(product._id)),
      ),
    );
    return { items, total };
  }

  async create(dto: CreateProductAdminDto): Promise<ProductChange> {
    const fields = await this.fields(dto);
    const product = await this.products
      .create({ ...fields, published: dto.published ?? false })
      .catch(conflictOnDuplicate(`Slug "${dto.slug}" is in use`));
    return this.announced(product, product.published);
  }

  async update(id: string, dto: UpdateProductDto): Promise<ProductChange> {
    const product = await this.find(id);
    await this.products
      .update(product, await this.fields(dto))
      .catch(conflictOnDuplicate(`Slug "${dto.slug}" is in use`));
    return { product: await this.view(product), newlyPublished: false };
  }

  async setPublished(id: string, published: boolean): Promise<ProductChange> {
    const product = await this.find(id);
    const newlyPublished = published && !product.published;
    await this.products.setPublished(product, published);
    return this.announced(product, newlyPublished);
  }

  /** Adds or replaces the content in one language. */
  async setTranslation(id: string, translation: ProductTranslationDto): Promise<ProductChange> {
    const product = await this.find(id);
    const others = product.translations.filter((existing) => existing.lang !== translation.lang);
    await this.products.setTranslations(product, [...others, stored(translation)]);
    return { product: await this.view(product), newlyPublished: false };
  }

  /** 404 when the product has no content in `lang`. */
  async removeTranslation(id: string, lang: string): Promise<ProductChange> {
    const product = await this.find(id);
    const kept = product.translations.filter((existing) => existing.lang !== lang);
    if (kept.length === product.translations.length) {
      throw new NotFoundException(`Product ${id} has no content in "${lang}"`);
    }
    await this.products.setTranslations(product, kept);
    return { product: await this.view(product), newlyPublished: false };
  }

  /** Deletes the product and its SKUs; 409 when sellers offer any of them. */
  async remove(id: string): Promise<AdminProductView> {
    const product = await this.find(id);
    const skus = await this.skus.ofProduct(product._id);
    await this.skuAdmin.assertNotOffered(skus);
    const view = toAdminProductView(product, skus);
    await this.skuAdmin.deleteUnlessOffered(skus);
    await this.products.delete(product._id);
    return view;
  }

  private async find(id: string): Promise<ProductDocument> {
    const product = await this.products.find(toObjectId(id, 'id'));
    if (!product) throw new NotFoundException(`Product ${id} not found`);
    return product;
  }

  private async view(product: ProductDocument): Promise<AdminProductView> {
    return toAdminProductView(product, await this.skus.ofProduct(product._id));
  }

  private async announced(product: ProductDocument, newlyPublished: boolean): Promise<ProductChange> {
    // Drafts are not announced: subscribers would learn of plants that are not for sale yet.
    if (newlyPublished) this.newPlantWebhook.announce({ ...toProductView(product) });
    return { product: await this.view(product), newlyPublished };
  }

  /** The given fields as stored; 400 for a language given twice or an unknown country, 404 for unknown ids. */
  private async fields(dto: UpdateProductDto): Promise<Partial<Product>> {
    const langs = (dto.translations ?? []).map((translation) => translation.lang);
    if (new Set(langs).size !== langs.length) throw new BadRequestException('Each language may appear once');
    return definedOnly({
      name: dto.name,
      description: dto.description,
      images: dto.images,
      categories: await this.references.categoryIds(dto.categories),
      attributes: await this.references.attributeValues(dto.attributes),
      geneticType: dto.geneticType,
      countryOfOrigin: countryOfOrigin(dto.countryOfOrigin),
      translations: dto.translations?.map(stored),
      slug: dto.slug,
    });
  }
}

function stored({ lang, name, description }: ProductTranslationDto): Product['translations'][number] {
  return { lang, name, description: description ?? '' };
}
