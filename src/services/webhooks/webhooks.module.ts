import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { NewPlantWebhook } from './new-plant-webhook';
import { WebhookDelivery, WebhookDeliverySchema } from './webhook-delivery.schema';
import { WebhookOutbox } from './webhook-outbox';

@Module({
  imports: [MongooseModule.forFeature([{ name: WebhookDelivery.name, schema: WebhookDeliverySchema }])],
  providers: [WebhookOutbox, NewPlantWebhook],
  exports: [NewPlantWebhook, WebhookOutbox],
})
export class WebhooksModule {}
