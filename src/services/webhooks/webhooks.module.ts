import { Module } from '@nestjs/common';
import { NEW_PLANT_WEBHOOK_CONFIG, newPlantWebhookConfig } from './new-plant-webhook.config';
import { NewPlantWebhook } from './new-plant-webhook.service';

@Module({
  providers: [{ provide: NEW_PLANT_WEBHOOK_CONFIG, useFactory: () => newPlantWebhookConfig() }, NewPlantWebhook],
  exports: [NewPlantWebhook],
})
export class WebhooksModule {}
