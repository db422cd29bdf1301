import { AuditTrail } from '../../audit/audit-trail';
import { Bean, Exposed, MapOf } from '../../bean';
import { Role } from '../../common/principal';
import { AttributeAdmin } from './attribute-admin';
import {
  CreateAttributeDto,
  CreateCategoryDto,
  CreateProductAdminDto,
  CreateSkuDto,
  ProductTranslationDto,
  UpdateAttributeDto,
  UpdateCategoryDto,
  UpdateProductDto,
  UpdateSkuDto,
  requireChange,
} from './catalogue-admin.dto';
import { AdminProductView, AdminAttributeView, CategoryNode, CategoryView, AdminSkuView } from './catalogue-admin.view';
import { CatalogueTopic } from './catalogue-topic';
import { CategoryTree } from './category-tree';
import { AdminProductPage, ProductAdmin, ProductChange } from './product-admin';
import { SkuAdmin } from './sku-admin';

/**
 * Catalogue management for operators (ADMIN only; sellers manage their offers over REST, not the catalogue):
 * the category tree, attributes, products with their content per language and publication, and SKUs.
 * Every change is a write through the catalogue models (so the storefront's next answer has it), then an audit entry
 * (`product.publish`, …; awaited, so no change is answered without it), then an event on `/topic/catalogue`
 * (`product.published`, …; see the README for what `data` holds).
 * Ids given as arguments: not 24 hex digits is a 400, unknown a 404; ids inside a map naming nothing are 404 too.
 */
type Noun = 'category' | 'attribute' | 'product' | 'sku';
type Verb = 'create' | 'update' | 'delete' | 'publish' | 'unpublish';

/** Audit actions are `<noun>.<verb>`; live events say what happened: `<noun>.<past tense>`. */
const PAST_TENSE: Record<Verb, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  publish: 'published',
  unpublish: 'unpublished',
};

@Bean('catalogueAdminServiceImpl', Role.ADMIN)
export class CatalogueAdminService {
  constructor(
    private readonly categories: CategoryTree,
    private readonly attributes: AttributeAdmin,
    private readonly products: ProductAdmin,
    private readonly skus: SkuAdmin,
    private readonly topic: CatalogueTopic,
    private readonly audit: AuditTrail,
  ) {}

  @Exposed()
  getCategoryTree(): Promise<CategoryNode[]> {
    return this.categories.tree();
  }

  @Exposed([MapOf(CreateCategoryDto)])
  async createCategory(category: CreateCategoryDto): Promise<CategoryView> {
    return this.categoryChanged('create', await this.categories.create(category), category);
  }

  /** Renames, moves (`parentId`; `null`: to the roots) or repositions; 409 for a move below itself. */
  @Exposed(['String', MapOf(UpdateCategoryDto)])
  async updateCategory(id: string, change: UpdateCategoryDto): Promise<CategoryView> {
    requireChange(change);
    return this.categoryChanged('update', await this.categories.update(id, change), change);
  }

  /** 409 while it has subcategories or products. */
  @Exposed(['String'])
  async deleteCategory(id: string): Promise<CategoryView> {
    const category = await this.categories.remove(id);
    return this.categoryChanged('delete', category, { name: category.name });
  }

  @Exposed()
  getAttributes(): Promise<AdminAttributeView[]> {
    return this.attributes.list();
  }

  @Exposed([MapOf(CreateAttributeDto)])
  async createAttribute(attribute: CreateAttributeDto): Promise<AdminAttributeView> {
    return this.attributeChanged('create', await this.attributes.create(attribute), attribute);
  }

  @Exposed(['String', MapOf(UpdateAttributeDto)])
  async updateAttribute(id: string, change: UpdateAttributeDto): Promise<AdminAttributeView> {
    requireChange(change);
    return this.attributeChanged('update', await this.attributes.update(id, change), change);
  }

  /** 409 while products or SKUs have values of it. */
  @Exposed(['String'])
  async deleteAttribute(id: string): Promise<AdminAttributeView> {
    const attribute = await this.attributes.remove(id);
    return this.attributeChanged('delete', attribute, { code: attribute.code });
  }

  /** Any product, drafts included, with its translations, slug and SKUs. */
  @Exposed(['String'])
  getProduct(id: string): Promise<AdminProductView> {
    return this.products.get(id);
  }

  /**
   * Products, drafts included, by a search request (DESIGN §6): `searchTerm` over name, description and slug;
   * `query` on name, slug, published, categories, geneticType, countryOfOrigin, createdAt, updatedAt.
   */
  @Exposed(['Map'])
  searchProducts(request: Record<string, unknown>): Promise<AdminProductPage> {
    return this.products.search(request);
  }

  @Exposed([MapOf(CreateProductAdminDto)])
  async createProduct(product: CreateProductAdminDto): Promise<AdminProductView> {
    return this.productChanged('create', await this.products.create(product), product);
  }

  @Exposed(['String', MapOf(UpdateProductDto)])
  async updateProduct(id: string, change: UpdateProductDto): Promise<AdminProductView> {
    requireChange(change);
    return this.productChanged('update', await this.products.update(id, change), change);
  }

  @Exposed(['String'])
  async publishProduct(id: string): Promise<AdminProductView> {
    return this.productChanged('publish', await this.products.setPublished(id, true), {});
  }

  /** The product leaves the storefront; its offers stay (and come back with it). */
  @Exposed(['String'])
  async unpublishProduct(id: string): Promise<AdminProductView> {
    return this.productChanged('unpublish', await this.products.setPublished(id, false), {});
  }

  /** Adds or replaces the product's name and description in one language. */
  @Exposed(['String', MapOf(ProductTranslationDto)])
  async setProductTranslation(id: string, translation: ProductTranslationDto): Promise<AdminProductView> {
    const change = await this.products.setTranslation(id, translation);
    return this.productChanged('update', change, { translation });
  }

  @Exposed(['String', 'String'])
  async removeProductTranslation(id: string, lang: string): Promise<AdminProductView> {
    const change = await this.products.removeTranslation(id, lang);
    return this.productChanged('update', change, { translationRemoved: lang });
  }

  /** Deletes the product with its SKUs; 409 while sellers offer any of its SKUs. */
  @Exposed(['String'])
  async deleteProduct(id: string): Promise<AdminProductView> {
    const product = await this.products.remove(id);
    const skuCodes = product.skus.map((sku) => sku.code);
    await this.changed('product', 'delete', product.id, { name: product.name, skuCodes }, { id: product.id });
    return product;
  }

  @Exposed([MapOf(CreateSkuDto)])
  async createSku(sku: CreateSkuDto): Promise<AdminSkuView> {
    return this.skuChanged('create', await this.skus.create(sku), sku);
  }

  @Exposed(['String', MapOf(UpdateSkuDto)])
  async updateSku(id: string, change: UpdateSkuDto): Promise<AdminSkuView> {
    requireChange(change);
    return this.skuChanged('update', await this.skus.update(id, change), change);
  }

  /** 409 while sellers offer it. */
  @Exposed(['String'])
  async deleteSku(id: string): Promise<AdminSkuView> {
    const sku = await this.skus.remove(id);
    return this.skuChanged('delete', sku, { code: sku.code, productId: sku.productId });
  }

  private async categoryChanged(verb: Verb, category: CategoryView, details: object): Promise<CategoryView> {
    await this.changed('category', verb, category.id, details, category);
    return category;
  }

  private async attributeChanged(verb: Verb, attribute: AdminAttributeView, details: object) {
    await this.changed('attribute', verb, attribute.id, details, attribute);
    return attribute;
  }

  /** A draft's content stays private: the topic is public, so it only learns the id. */
  private async productChanged(verb: Verb, { product }: ProductChange, details: object): Promise<AdminProductView> {
    const data = product.published ? product : { id: product.id, published: false };
    await this.changed('product', verb, product.id, details, data);
    return product;
  }

  /** Only ids go live: the SKU's product may be a draft. */
  private async skuChanged(verb: Verb, sku: AdminSkuView, details: object): Promise<AdminSkuView> {
    await this.changed('sku', verb, sku.id, details, { id: sku.id, productId: sku.productId });
    return sku;
  }

  /**
   * Records the change in the audit trail (awaited: a change is not answered as done without its entry), then
   * publishes it. `details` is what the caller asked for (the validated map), as plain JSON.
   */
  private async changed(noun: Noun, verb: Verb, id: string, details: object, data: unknown): Promise<void> {
    const plain = JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
    await this.audit.record({ action: `${noun}.${verb}`, target: { type: noun, id }, details: plain });
    this.topic.catalogueChanged(`${noun}.${PAST_TENSE[verb]}`, id, data);
  }
}
