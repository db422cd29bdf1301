import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { requireCaller } from './caller';
import { AdjustStockDto, CreateOfferDto, OfferPageQueryDto, SetStockDto, UpdateOfferDto } from './seller-offer.dto';
import { SellerOfferPage, SellerOfferView } from './seller-offer.view';
import { SellerOffers } from './seller-offers';

/** Seller self-service for offers: a USER acts for their own seller, an ADMIN for any (README, "Offers and stock"). */
@Roles(Role.USER)
@Controller('api/v1/catalogue')
export class SellerOfferController {
  constructor(private readonly offers: SellerOffers) {}

  @Get('sellers/me/offers')
  listOwn(@Query() { page, limit }: OfferPageQueryDto): Promise<SellerOfferPage> {
    return this.offers.listOwn(requireCaller(), page, limit);
  }

  @Post('offers')
  @HttpCode(201)
  create(@Body() dto: CreateOfferDto): Promise<SellerOfferView> {
    return this.offers.create(requireCaller(), dto);
  }

  @Patch('offers/:id')
  update(@Param('id') id: string, @Body() dto: UpdateOfferDto): Promise<SellerOfferView> {
    return this.offers.update(requireCaller(), id, dto);
  }

  /** Sets the units on hand at one warehouse. */
  @Put('offers/:id/stock/:warehouseId')
  setStock(
    @Param('id') id: string,
    @Param('warehouseId') warehouseId: string,
    @Body() { quantity }: SetStockDto,
  ): Promise<SellerOfferView> {
    return this.offers.editStock(requireCaller(), id, warehouseId, { set: quantity });
  }

  /** Adds (or, negative, removes) units on hand at one warehouse. */
  @Post('offers/:id/stock/:warehouseId/adjust')
  @HttpCode(200)
  adjustStock(
    @Param('id') id: string,
    @Param('warehouseId') warehouseId: string,
    @Body() { delta }: AdjustStockDto,
  ): Promise<SellerOfferView> {
    return this.offers.editStock(requireCaller(), id, warehouseId, { delta });
  }
}
