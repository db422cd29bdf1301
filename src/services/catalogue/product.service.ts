import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { NewPlantWebhook } from '../webhooks/new-plant-webhook.service';
import { CreateProductDto } from './product.dto';
import { Product, ProductDocument } from './product.schema';
import { toProductView } from './product.view';

/** Creates products and announces the published ones as New Plants. */
@Injectable()
export class ProductService {
  constructor(
    @InjectModel(Product.name) private readonly products: Model<Product>,
    private readonly newPlantWebhook: NewPlantWebhook,
  ) {}

  async create(dto: CreateProductDto): Promise<ProductDocument> {
    const product = await this.products.create({
      ...dto,
      attributes: (dto.attributes ?? []).map(({ attributeId, values }) => ({
        attribute: new Types.ObjectId(attributeId),
        values,
      })),
    });
    // Drafts are not announced: subscribers would learn of plants that are not for sale yet.
    if (product.published) this.newPlantWebhook.announce({ ...toProductView(product) });
    return product;
  }
}
