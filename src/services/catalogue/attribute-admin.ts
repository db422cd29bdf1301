import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { Attribute } from './attribute.schema';
import { CreateAttributeDto, UpdateAttributeDto } from './catalogue-admin.dto';
import { AdminAttributeView, toAttributeView } from './catalogue-admin.view';
import { definedOnly, listed } from './catalogue-admin.view';
import { Product } from './product.schema';
import { Sku } from './sku.schema';

type StoredAttribute = Attribute & { _id: Types.ObjectId };

/** Attributes (OPTION or VALUE); one that a product or SKU has values of is deleted only after they drop it. */
@Injectable()
export class AttributeAdmin {
  constructor(
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
  ) {}

  async list(): Promise<AdminAttributeView[]> {
    const all = await this.attributes.find().sort({ code: 1 }).lean<StoredAttribute[]>().exec();
    return all.map(toAttributeView);
  }

  async create(dto: CreateAttributeDto): Promise<AdminAttributeView> {
    const created = await this.attributes
      .create({ code: dto.code, name: dto.name, type: dto.type, unit: dto.unit })
      .catch(conflictOnDuplicate(`An attribute with code "${dto.code}" exists already`));
    return toAttributeView(created.toObject());
  }

  async update(id: string, dto: UpdateAttributeDto): Promise<AdminAttributeView> {
    const updated = await this.attributes
      .findByIdAndUpdate(
        toObjectId(id, 'id'),
        { $set: definedOnly({ name: dto.name, unit: dto.unit }) },
        { returnDocument: 'after' },
      )
      .lean<StoredAttribute>()
      .exec();
    if (!updated) throw new NotFoundException(`Attribute ${id} not found`);
    return toAttributeView(updated);
  }

  /** 409 naming the products and SKUs that still have values of it. */
  async remove(id: string): Promise<AdminAttributeView> {
    const attribute = await this.attributes.findById(toObjectId(id, 'id')).lean<StoredAttribute>().exec();
    if (!attribute) throw new NotFoundException(`Attribute ${id} not found`);
    const usedBy = { 'attributes.attribute': attribute._id };
    const [products, skus] = await Promise.all([
      this.products.find(usedBy, { name: 1 }).lean().exec(),
      this.skus.find(usedBy, { code: 1 }).lean().exec(),
    ]);
    if (products.length + skus.length > 0) {
      const users = [...products.map((p) => `product ${p.name}`), ...skus.map((s) => `SKU ${s.code}`)];
      throw new ConflictException(`Attribute "${attribute.code}" is used by ${listed(users)}`);
    }
    await this.attributes.deleteOne({ _id: attribute._id }).exec();
    return toAttributeView(attribute);
  }
}
