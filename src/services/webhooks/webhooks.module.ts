import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { NewPlantWebhook } from './new-plant-webhook.service';
import { WebhookDelivery, WebhookDeliverySchema } from './webhook-delivery.schema';

@Module({
  imports: [MongooseModule.forFeature([{ name: WebhookDelivery.name, schema: WebhookDeliverySchema }])],
  providers: [NewPlantWebhook],
  exports: [NewPlantWebhook],
})
export class WebhooksModule {}
