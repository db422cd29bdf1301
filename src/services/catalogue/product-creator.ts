import { BadRequestException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import countries from 'i18n-iso-countries';
import { Model, Types } from 'mongoose';
import { AuditTrail } from '../../audit/audit-trail';
import { NewPlantWebhook } from '../webhooks/new-plant-webhook';
import { Attribute } from './attribute.schema';
import { CreateProductDto } from './product.dto';
import { ProductDocument } from './product.schema';
import { ProductRepository } from './product.repository';
import { toProductView } from './product.view';

/** Creates products and announces the published ones as New Plants. */
@Injectable()
export class ProductCreator {
  constructor(
    private readonly products: ProductRepository,
    @InjectModel(Attribute.name) private readonly attributes: Model<Attribute>,
    private readonly newPlantWebhook: NewPlantWebhook,
    private readonly audit: AuditTrail,
  ) {}

  /** @throws 400 for an unknown country of origin or attribute. */
  async create(dto: CreateProductDto): Promise<ProductDocument> {
    const country = countryOfOrigin(dto.countryOfOrigin);
    const attributes = await this.attributeValues(dto);
    const product = await this.products.create({ ...dto, countryOfOrigin: country, attributes });
    await this.audit.record({
      action: 'product.create',
      target: { type: 'product', id: String(product._id) },
      details: { name: product.name, published: product.published },
    });
    // Drafts are not announced: subscribers would learn of plants that are not for sale yet.
    if (product.published) this.newPlantWebhook.announce({ ...toProductView(product) });
    return product;
  }

  private async attributeValues(dto: CreateProductDto): Promise<{ attribute: Types.ObjectId; values: string[] }[]> {
    const values = (dto.attributes ?? []).map(({ attributeId, values }) => ({
      attribute: new Types.ObjectId(attributeId),
      values,
    }));
    const ids = values.map((value) => value.attribute);
    if ((await this.attributes.countDocuments({ _id: { $in: ids } })) !== new Set(ids.map(String)).size) {
      throw new BadRequestException('Every attributeId must name an existing attribute');
    }
    return values;
  }
}

/** The ISO 3166-1 alpha-2 code in capitals; 400 for a code that names no country. */
export function countryOfOrigin(code: string | undefined): string | undefined {
  const country = code?.toUpperCase();
  if (country && !countries.isValid(country)) throw new BadRequestException(`Unknown country of origin "${code}"`);
  return country;
}
