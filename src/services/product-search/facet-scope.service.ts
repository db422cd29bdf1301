import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Attribute, AttributeDocument, AttributeType } from '../catalogue/attribute.schema';
import { toObjectId } from '../catalogue/object-id';
import { Sku } from '../catalogue/sku.schema';

/** Validates the arguments that narrow a facet: the SKU scope, an attribute and a filter type. */
@Injectable()
export class FacetScope {
  constructor(
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
  ) {}

  /** A blank `skuId` means the whole catalogue; otherwise the SKU must exist (404). */
  async sku(skuId: string): Promise<Types.ObjectId | undefined> {
    if (skuId.trim() === '') return undefined;
    const id = toObjectId(skuId.trim(), 'skuId');
    if (!(await this.skus.exists({ _id: id }))) throw new NotFoundException(`SKU ${skuId} not found`);
    return id;
  }

  async attribute(attributeId: string, type: AttributeType): Promise<AttributeDocument> {
    const attribute = await this.attributes.findById(toObjectId(attributeId, 'attributeId'));
    if (!attribute) throw new NotFoundException(`Attribute ${attributeId} not found`);
    if (attribute.type !== type) {
      throw new BadRequestException(`Attribute ${attributeId} is of type ${attribute.type}, not ${type}`);
    }
    return attribute;
  }

  filterType(filterType: string): AttributeType {
    const type = filterType.trim().toUpperCase();
    if (type === AttributeType.OPTION || type === AttributeType.VALUE) return type;
    throw new BadRequestException(`filterType must be ${AttributeType.OPTION} or ${AttributeType.VALUE}`);
  }

  async attributesByIds(ids: unknown[]): Promise<Map<string, Attribute & { _id: Types.ObjectId }>> {
    const found = await this.attributes.find({ _id: { $in: ids } }).lean();
    return new Map(found.map((attribute) => [String(attribute._id), attribute]));
  }
}
