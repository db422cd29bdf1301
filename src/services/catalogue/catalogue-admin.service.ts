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
} from './catalogue-admin.dto';
import { AdminProductView, AdminAttributeView, CategoryNode, CategoryView, AdminSkuView } from './catalogue-admin.view';
import { CatalogueTopic } from './catalogue-topic';
import { CategoryTree } from './category-tree';
import { ProductAdmin, ProductChange } from './product-admin';
import { SkuAdmin } from './sku-admin';

/**
 * Catalogue management for operators (ADMIN only; sellers manage their offers over REST, not the catalogue):
 * the category tree, attributes, products with their content per language and publication, and SKUs.
 * Every change is a write through the catalogue models (so the storefront's next answer has it) and is then
 * published on `/topic/catalogue` as `<noun>.<verb>` (see the README for what `data` holds).
 * Ids given as arguments: not 24 hex digits is a 400, unknown a 404; ids inside a map naming nothing are 404 too.
 */
@Bean('catalogueAdminServiceImpl', Role.ADMIN)
export class CatalogueAdminService {
  constructor(
    private readonly categories: CategoryTree,
    private readonly attributes: AttributeAdmin,
    private readonly products: ProductAdmin,
    private readonly skus: SkuAdmin,
    private readonly topic: CatalogueTopic,
  ) {}

  @Exposed()
  getCategoryTree(): Promise<CategoryNode[]> {
    return this.categories.tree();
  }

  @Exposed([MapOf(CreateCategoryDto)])
  async createCategory(category: CreateCategoryDto): Promise<CategoryView> {
    return this.categoryChanged('category.created', await this.categories.create(category));
  }

  /** Renames, moves (`parentId`; `null`: to the roots) or repositions; 409 for a move below itself. */
  @Exposed(['String', MapOf(UpdateCategoryDto)])
  async updateCategory(id: string, change: UpdateCategoryDto): Promise<CategoryView> {
    return this.categoryChanged('category.updated', await this.categories.update(id, change));
  }

  /** 409 while it has subcategories or products. */
  @Exposed(['String'])
  async deleteCategory(id: string): Promise<CategoryView> {
    return this.categoryChanged('category.deleted', await this.categories.remove(id));
  }

  @Exposed()
  getAttributes(): Promise<AdminAttributeView[]> {
    return this.attributes.list();
  }

  @Exposed([MapOf(CreateAttributeDto)])
  async createAttribute(attribute: CreateAttributeDto): Promise<AdminAttributeView> {
    return this.attributeChanged('attribute.created', await this.attributes.create(attribute));
  }

  @Exposed(['String', MapOf(UpdateAttributeDto)])
  async updateAttribute(id: string, change: UpdateAttributeDto): Promise<AdminAttributeView> {
    return this.attributeChanged('attribute.updated', await this.attributes.update(id, change));
  }

  /** 409 while products or SKUs have values of it. */
  @Exposed(['String'])
  async deleteAttribute(id: string): Promise<AdminAttributeView> {
    return this.attributeChanged('attribute.deleted', await this.attributes.remove(id));
  }

  /** Any product, drafts included, with its translations, slug and SKUs. */
  @Exposed(['String'])
  getProduct(id: string): Promise<AdminProductView> {
    return this.products.get(id);
  }

  @Exposed([MapOf(CreateProductAdminDto)])
  async createProduct(product: CreateProductAdminDto): Promise<AdminProductView> {
    return this.productChanged('product.created', await this.products.create(product));
  }

  @Exposed(['String', MapOf(UpdateProductDto)])
  async updateProduct(id: string, change: UpdateProductDto): Promise<AdminProductView> {
    return this.productChanged('product.updated', await this.products.update(id, change));
  }

  @Exposed(['String'])
  async publishProduct(id: string): Promise<AdminProductView> {
    return this.productChanged('product.published', await this.products.setPublished(id, true));
  }

  /** The product leaves the storefront; its offers stay (and come back with it). */
  @Exposed(['String'])
  async unpublishProduct(id: string): Promise<AdminProductView> {
    return this.productChanged('product.unpublished', await this.products.setPublished(id, false));
  }

  /** Adds or replaces the product's name and description in one language. */
  @Exposed(['String', MapOf(ProductTranslationDto)])
  async setProductTranslation(id: string, translation: ProductTranslationDto): Promise<AdminProductView> {
    return this.productChanged('product.updated', await this.products.setTranslation(id, translation));
  }

  @Exposed(['String', 'String'])
  async removeProductTranslation(id: string, lang: string): Promise<AdminProductView> {
    return this.productChanged('product.updated', await this.products.removeTranslation(id, lang));
  }

  /** Deletes the product with its SKUs; 409 while sellers offer any of its SKUs. */
  @Exposed(['String'])
  async deleteProduct(id: string): Promise<AdminProductView> {
    const product = await this.products.remove(id);
    this.topic.catalogueChanged('product.deleted', product.id, { id: product.id });
    return product;
  }

  @Exposed([MapOf(CreateSkuDto)])
  async createSku(sku: CreateSkuDto): Promise<AdminSkuView> {
    return this.skuChanged('sku.created', await this.skus.create(sku));
  }

  @Exposed(['String', MapOf(UpdateSkuDto)])
  async updateSku(id: string, change: UpdateSkuDto): Promise<AdminSkuView> {
    return this.skuChanged('sku.updated', await this.skus.update(id, change));
  }

  /** 409 while sellers offer it. */
  @Exposed(['String'])
  async deleteSku(id: string): Promise<AdminSkuView> {
    return this.skuChanged('sku.deleted', await this.skus.remove(id));
  }

  private categoryChanged(event: string, category: CategoryView): CategoryView {
    this.topic.catalogueChanged(event, category.id, category);
    return category;
  }

  private attributeChanged(event: string, attribute: AdminAttributeView): AdminAttributeView {
    this.topic.catalogueChanged(event, attribute.id, attribute);
    return attribute;
  }

  /** A draft's content stays private: the topic is public, so it only learns the id. */
  private productChanged(event: string, { product }: ProductChange): AdminProductView {
    const data = product.published ? product : { id: product.id, published: false };
    this.topic.catalogueChanged(event, product.id, data);
    return product;
  }

  /** Only ids: the SKU's product may be a draft. */
  private skuChanged(event: string, sku: AdminSkuView): AdminSkuView {
    this.topic.catalogueChanged(event, sku.id, { id: sku.id, productId: sku.productId });
    return sku;
  }
}
