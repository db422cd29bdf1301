import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { CreateProductDto } from './product.dto';
import { ProductCreator } from './product-creator';
import { ProductView, toProductView } from './product.view';

/** Catalogue administration. The spec has no product bean, so products are created over REST. */
@Controller('api/v1/catalogue')
export class ProductController {
  constructor(private readonly products: ProductCreator) {}

  /** Creates a product; a published one is announced to New Plant subscribers without waiting for them. */
  @Roles(Role.ADMIN)
  @Post('products')
  @HttpCode(201)
  async create(@Body() dto: CreateProductDto): Promise<ProductView> {
    return toProductView(await this.products.create(dto));
  }
}
