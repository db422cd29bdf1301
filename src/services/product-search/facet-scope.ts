import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { Types } from 'mongoose';
import { AttributeType } from '../catalogue/attribute-type';
import { toObjectId } from '../../common/mongo/object-id';
import { AttributeRecord, OfferFacets } from '../catalogue/offer-facets';

/** Validates the arguments that narrow a facet: the SKU scope, an attribute and a filter type. */
@Injectable()
export class FacetScope {
  constructor(private readonly catalogue: OfferFacets) {}

  /** A blank `skuId` means the whole catalogue; otherwise it must be an ObjectId (400). */
  skuId(skuId: string): Types.ObjectId | undefined {
    return skuId.trim() === '' ? undefined : toObjectId(skuId.trim(), 'skuId');
  }

  /** @throws 404 when there is no such SKU */
  async assertSkuExists(id: Types.ObjectId, skuId: string): Promise<void> {
    if (!(await this.catalogue.skuExists(id))) throw new NotFoundException(`SKU ${skuId} not found`);
  }

  /** 400 for a malformed id or (when `type` is given) another type, 404 for an unknown attribute. */
  async attribute(attributeId: string, type?: AttributeType): Promise<AttributeRecord> {
    const attribute = await this.catalogue.attribute(toObjectId(attributeId, 'attributeId'));
    if (!attribute) throw new NotFoundException(`Attribute ${attributeId} not found`);
    if (type && attribute.type !== type) {
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
