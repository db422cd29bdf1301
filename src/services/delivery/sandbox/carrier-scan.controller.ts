import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Roles } from '../../../auth/roles.decorator';
import { Role } from '../../../common/principal';
import { AppConfig } from '../../../config/app-config';
import { SignedWebhookSender } from '../../payments';
import { ParcelScanDto } from '../delivery.dto';
import { Parcel, ParcelStatus, TrackingEvent, TrackingEventType } from '../logistics.provider';
import { LogisticsSandbox } from './logistics-sandbox';

const EVENT_TYPE = {
  [ParcelStatus.PICKED_UP]: TrackingEventType.PICKED_UP,
  [ParcelStatus.DELIVERED]: TrackingEventType.DELIVERED,
};

/** Plays the sandbox carrier: a scan moves the parcel on and sends the signed tracking webhook. */
@Controller('api/v1/delivery/sandbox/parcels')
export class CarrierScanController {
  constructor(
    private readonly sandbox: LogisticsSandbox,
    private readonly sender: SignedWebhookSender,
    private readonly config: AppConfig,
  ) {}

  @Roles(Role.ADMIN)
  @Post(':parcelId/scan')
  @HttpCode(200)
  async scan(@Param('parcelId') parcelId: string, @Body() { status }: ParcelScanDto): Promise<Parcel> {
    const parcel = await this.sandbox.scan(parcelId, status);
    const event: TrackingEvent = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: EVENT_TYPE[status],
      created: Math.floor(Date.now() / 1000),
      data: {
        parcelId: parcel.id,
        reference: parcel.reference,
        status: parcel.status,
        trackingNumber: parcel.trackingNumber,
      },
    };
    await this.sender.send('/api/v1/delivery/webhook', event, this.config.webhookSecrets.delivery);
    return parcel;
  }
}
