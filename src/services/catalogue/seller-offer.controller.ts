import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { requireCaller } from './caller';
import { AdjustStockDto, CreateOfferDto, OfferPageQueryDto, SetStockDto, UpdateOfferDto } from './seller-offer.dto';
import { SellerOfferPage, SellerOfferView } from './seller-offer.view';
import { SellerOffers } from './seller-offers';

/** Seller self-service for offers: a USER acts for their own seller, an ADMIN for any (README, "Offers and stock"). */
@ApiTags('Seller offers')
@ApiBearerAuth('bearer')
@Roles(Role.USER)
@Controller('api/v1/catalogue')
export class SellerOfferController {
  constructor(private readonly offers: SellerOffers) {}

  @Get('sellers/me/offers')
  @ApiOperation({ summary: "The caller's seller's offers, by SKU (page: 0-based, limit: 1-200)" })
  listOwn(@Query() { page, limit }: OfferPageQueryDto): Promise<SellerOfferPage> {
    return this.offers.listOwn(requireCaller(), page, limit);
  }

  @Post('offers')
  @ApiOperation({ summary: "Creates an offer for the caller's seller (an ADMIN names any seller with sellerId)" })
  @HttpCode(201)
  create(@Body() dto: CreateOfferDto): Promise<SellerOfferView> {
    return this.offers.create(requireCaller(), dto);
  }

  @Patch('offers/:id')
  @ApiOperation({ summary: "Changes an offer's price, currency or active flag" })
  update(@Param('id') id: string, @Body() dto: UpdateOfferDto): Promise<SellerOfferView> {
    return this.offers.update(requireCaller(), id, dto);
  }

  /** Sets the units on hand at one warehouse. */
  @Put('offers/:id/stock/:warehouseId')
  @ApiOperation({
    summary: "Sets the units on hand at one of the seller's warehouses (never below what orders reserved)",
  })
  setStock(
    @Param('id') id: string,
    @Param('warehouseId') warehouseId: string,
    @Body() { quantity }: SetStockDto,
  ): Promise<SellerOfferView> {
    return this.offers.editStock(requireCaller(), id, warehouseId, { set: quantity });
  }

  /** Adds (or, negative, removes) units on hand at one warehouse. */
  @Post('offers/:id/stock/:warehouseId/adjust')
  @ApiOperation({ summary: "Adds (or, negative, removes) units on hand at one of the seller's warehouses" })
  @HttpCode(200)
  adjustStock(
    @Param('id') id: string,
    @Param('warehouseId') warehouseId: string,
    @Body() { delta }: AdjustStockDto,
  ): Promise<SellerOfferView> {
    return this.offers.editStock(requireCaller(), id, warehouseId, { delta });
  }
}
