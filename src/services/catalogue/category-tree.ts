import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { CreateCategoryDto, UpdateCategoryDto } from './catalogue-admin.dto';
import { CategoryNode, CategoryView, listed, toCategoryView } from './catalogue-admin.view';
import { Category } from './category.schema';
import { Product } from './product.schema';

type StoredCategory = Category & { _id: Types.ObjectId };

/**
 * The category tree: roots have no parent, siblings are ordered by `position` then name. A category is deleted only
 * when it has no subcategories and no product is in it (409 naming them); a move under itself or one of its own
 * descendants is a 409 (it would cut the branch off the tree).
 */
@Injectable()
export class CategoryTree {
  constructor(
    @InjectModel(Category.name) private readonly categories: Model<Category>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
  ) {}

  /** The whole tree, built from one query (categories are few: a shop has tens or hundreds). */
  async tree(): Promise<CategoryNode[]> {
    const all = await this.categories.find().sort({ position: 1, name: 1 }).lean<StoredCategory[]>().exec();
    const nodes = new Map(all.map((category) => [String(category._id), { ...toCategoryView(category), children: [] }]));
    const roots: CategoryNode[] = [];
    for (const node of nodes.values()) {
      const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  async create(dto: CreateCategoryDto): Promise<CategoryView> {
    const parent = await this.parentOf(dto.parentId);
    const position = dto.position ?? (await this.nextPosition(parent));
    const created = await this.categories
      .create({ name: dto.name, parent, position })
      .catch(conflictOnDuplicate(`A category named "${dto.name}" is already there`));
    return toCategoryView(created.toObject());
  }

  /** Renames, moves (`parentId`, `null` for the roots) or repositions a category. */
  async update(id: string, dto: UpdateCategoryDto): Promise<CategoryView> {
    const category = await this.get(id);
    const change: Partial<Category> = {};
    if (dto.name !== undefined) change.name = dto.name;
    if (dto.parentId !== undefined) {
      change.parent = await this.parentOf(dto.parentId);
      await this.assertNotUnder(category._id, change.parent);
      if (dto.position === undefined) change.position = await this.nextPosition(change.parent);
    }
    if (dto.position !== undefined) change.position = dto.position;
    const name = change.name ?? category.name;
    const updated = await this.categories
      .findByIdAndUpdate(category._id, { $set: change }, { returnDocument: 'after', runValidators: true })
      .lean<StoredCategory>()
      .exec()
      .catch(conflictOnDuplicate(`A category named "${name}" is already there`));
    if (!updated) throw new NotFoundException(`Category ${id} not found`);
    return toCategoryView(updated);
  }

  /** Deletes a leaf without products; 409 naming the subcategories or products that keep it. */
  async remove(id: string): Promise<CategoryView> {
    const category = await this.get(id);
    const children = await this.categories.find({ parent: category._id }, { name: 1 }).lean<StoredCategory[]>();
    if (children.length > 0) {
      const names = listed(children.map((child) => child.name));
      throw new ConflictException(`Category "${category.name}" has ${children.length} subcategories: ${names}`);
    }
    const products = await this.products
      .find({ categories: String(category._id) }, { name: 1 })
      .lean()
      .exec();
    if (products.length > 0) {
      const names = listed(products.map((product) => product.name));
      throw new ConflictException(`Category "${category.name}" holds ${products.length} products: ${names}`);
    }
    await this.categories.deleteOne({ _id: category._id }).exec();
    return toCategoryView(category);
  }

  private async get(id: string): Promise<StoredCategory> {
    const category = await this.categories.findById(toObjectId(id, 'id')).lean<StoredCategory>().exec();
    if (!category) throw new NotFoundException(`Category ${id} not found`);
    return category;
  }

  private async parentOf(parentId: string | null | undefined): Promise<Types.ObjectId | null> {
    if (parentId === undefined || parentId === null) return null;
    return (await this.get(parentId))._id;
  }

  /** 409 when `parent` is the category itself or lies below it. */
  private async assertNotUnder(category: Types.ObjectId, parent: Types.ObjectId | null): Promise<void> {
    // Each step reads one node; a tree deeper than the number of categories would be a cycle already there.
    const limit = await this.categories.estimatedDocumentCount();
    for (let node = parent, steps = 0; node !== null && steps <= limit; steps++) {
      if (node.equals(category)) throw new ConflictException('A category cannot move under itself or its descendants');
      node = (await this.categories.findById(node, { parent: 1 }).lean<StoredCategory>().exec())?.parent ?? null;
    }
  }

  private async nextPosition(parent: Types.ObjectId | null): Promise<number> {
    const last = await this.categories
      .findOne({ parent }, { position: 1 })
      .sort({ position: -1 })
      .lean<StoredCategory>()
      .exec();
    return last ? last.position + 1 : 0;
  }
}
