import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, RawBodyRequest, Req } from '@nestjs/common';
import { Request } from 'express';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { AppConfig } from '../../config/app-config';
import { SIGNATURE_HEADER, verifiedPayload, WebhookReceipt, WebhookReplayGuard } from '../payments';
import { ParcelRequestDto, PickupPointQueryDto, RateRequestDto } from './delivery.dto';
import { LogisticsProvider, Parcel, PickupPoint, Rate, TrackingEventType } from './logistics.provider';
import { parseTrackingEvent } from './tracking-event';
import { DomainEvents } from '../../events/domain-events';

/** `/api/v1/delivery/**`: the logistics provider's widget service (pickup points, rates, parcels) and webhook. */
@Controller('api/v1/delivery')
export class DeliveryController {
  constructor(
    private readonly logistics: LogisticsProvider,
    private readonly events: DomainEvents,
    private readonly replays: WebhookReplayGuard,
    private readonly config: AppConfig,
  ) {}

  @Get('pickup-points')
  pickupPoints(@Query() { country, postalCode }: PickupPointQueryDto): Promise<PickupPoint[]> {
    return this.logistics.pickupPoints(country.toUpperCase(), postalCode);
  }

  @Post('rates')
  @HttpCode(200)
  rates(@Body() request: RateRequestDto): Promise<Rate[]> {
    const { fromCountry, toCountry, weightGrams, currency = 'EUR' } = request;
    return this.logistics.rates({
      fromCountry: fromCountry.toUpperCase(),
      toCountry: toCountry.toUpperCase(),
      weightGrams,
      currency: currency.toUpperCase(),
    });
  }

  @Roles(Role.ADMIN)
  @Post('parcels')
  @HttpCode(201)
  book(@Body() request: ParcelRequestDto): Promise<Parcel> {
    return this.logistics.bookParcel(request);
  }

  @Roles(Role.ADMIN)
  @Get('parcels/:parcelId')
  parcel(@Param('parcelId') parcelId: string): Promise<Parcel> {
    return this.logistics.parcel(parcelId);
  }

  /** Signed tracking updates; 400 for a bad signature before anything changes, redelivery is a no-op. */
  @Post('webhook')
  @HttpCode(200)
  async webhook(
    @Req() request: RawBodyRequest<Request>,
    @Headers(SIGNATURE_HEADER) signature: string | undefined,
  ): Promise<WebhookReceipt> {
    const event = parseTrackingEvent(verifiedPayload(request, signature, this.config.webhookSecrets.delivery));
    const handled = await this.replays.once('delivery', event.id, () =>
      this.events.emit(event.type === TrackingEventType.PICKED_UP ? 'parcel.picked-up' : 'parcel.delivered', event),
    );
    return { received: true, duplicate: !handled };
  }
}
