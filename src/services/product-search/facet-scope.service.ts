import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { Attribute, AttributeDocument, AttributeType } from '../catalogue/attribute.schema';
import { Sku } from '../catalogue/sku.schema';

/** Validates the arguments that narrow a facet: the SKU scope, an attribute and a filter type. */
@Injectable()
export class FacetScope {
  constructor(
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
  ) {}

  /** A blank `skuId` means the whole catalogue; otherwise it must be an ObjectId (400). */
  skuId(skuId: string): Types.ObjectId | undefined {
    return skuId.trim() === '' ? undefined : toObjectId(skuId.trim(), 'skuId');
  }

  /** @throws 404 when there is no such SKU */
  async assertSkuExists(id: Types.ObjectId, skuId: string): Promise<void> {
    if (!(await this.skus.exists({ _id: id }))) throw new NotFoundException(`SKU ${skuId} not found`);
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
}
