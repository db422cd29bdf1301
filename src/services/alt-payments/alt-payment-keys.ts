import { ConflictException, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Whether the provider's keys are configured; without them payments are refused with 409, like an unset VCS remote. */
@Injectable()
export class AltPaymentKeys {
  constructor(private readonly config: AppConfig) {}

  defined(): boolean {
    return Boolean(this.config.altPayment.apiKey && this.config.altPayment.webhookSecret);
  }

  /** @throws ConflictException when a key is missing */
  require(): void {
    if (!this.defined()) {
      throw new ConflictException('Alternative payments are not configured (ALT_PAYMENT_API_KEY)');
    }
  }
}
