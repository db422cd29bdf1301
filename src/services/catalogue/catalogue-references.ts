import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Attribute } from './attribute.schema';
import { AttributeValue } from './attribute-value.schema';
import { Category } from './category.schema';
import { AttributeValueDto } from './product.dto';

/** Checks the ids a product or SKU refers to before they are stored: each must name what exists. */
@Injectable()
export class CatalogueReferences {
  constructor(
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    @InjectModel(Category.name) private readonly categories: Model<Category>,
  ) {}

  /** Attribute values as stored; 400 for an attribute given twice, 404 naming the first unknown one. */
  async attributeValues(values: AttributeValueDto[] | undefined): Promise<AttributeValue[] | undefined> {
    if (values === undefined) return undefined;
    const ids = values.map((value) => value.attributeId.toLowerCase());
    if (new Set(ids).size !== ids.length) throw new BadRequestException('Each attribute may appear once');
    await this.assertAllExist(this.attributes, ids, 'Attribute');
    return values.map(({ attributeId, values: given }) => ({
      attribute: new Types.ObjectId(attributeId),
      values: [...new Set(given)],
    }));
  }

  /** Category ids without repeats; 404 naming the first unknown one. */
  async categoryIds(ids: string[] | undefined): Promise<string[] | undefined> {
    if (ids === undefined) return undefined;
    const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
    await this.assertAllExist(this.categories, unique, 'Category');
    return unique;
  }

  private async assertAllExist<T>(model: Model<T>, ids: string[], what: string): Promise<void> {
    const found = await model
      .find({ _id: { $in: ids.map((id) => new Types.ObjectId(id)) } }, { _id: 1 })
      .lean<{ _id: Types.ObjectId }[]>()
      .exec();
    const known = new Set(found.map((doc) => String(doc._id)));
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined) throw new NotFoundException(`${what} ${missing} not found`);
  }
}
