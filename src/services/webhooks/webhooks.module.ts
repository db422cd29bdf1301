import { Module } from '@nestjs/common';
import { NewPlantWebhook } from './new-plant-webhook.service';

@Module({ providers: [NewPlantWebhook], exports: [NewPlantWebhook] })
export class WebhooksModule {}
