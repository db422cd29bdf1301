import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { AttributeRepository } from './attribute.repository';
import { CreateAttributeDto, UpdateAttributeDto } from './catalogue-admin.dto';
import { AdminAttributeView, toAttributeView } from './catalogue-admin.view';
import { definedOnly, listed } from './catalogue-admin.view';
import { Product } from './product.schema';
import { Sku } from './sku.schema';

/** Attributes (OPTION or VALUE); one that a product or SKU has values of is deleted only after they drop it. */
@Injectable()
export class AttributeAdmin {
  constructor(
    private readonly attributes: AttributeRepository,
    @InjectModel(Product.name) private readonly products: Model<Product>,
    @InjectModel(Sku.name) private readonly skus: Model<Sku>,
  ) {}

  async list(): Promise<AdminAttributeView[]> {
    return (await this.attributes.byCode()).map(toAttributeView);
  }

  async create(dto: CreateAttributeDto): Promise<AdminAttributeView> {
    const created = await this.attributes
      .create({ code: dto.code, name: dto.name, type: dto.type, unit: dto.unit })
      .catch(conflictOnDuplicate(`An attribute with code "${dto.code}" exists already`));
    return toAttributeView(created);
  }

  async update(id: string, dto: UpdateAttributeDto): Promise<AdminAttributeView> {
    const labels = definedOnly({ name: dto.name, unit: dto.unit });
    const updated = await this.attributes.relabel(toObjectId(id, 'id'), labels);
    if (!updated) throw new NotFoundException(`Attribute ${id} not found`);
    return toAttributeView(updated);
  }

  /** 409 naming the products and SKUs that still have values of it. */
  async remove(id: string): Promise<AdminAttributeView> {
    const attribute = await this.attributes.find(toObjectId(id, 'id'));
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
    await this.attributes.delete(attribute._id);
    return toAttributeView(attribute);
  }
}
