import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Whether the provider's keys are configured; payments are refused (503) without them. */
@Injectable()
export class AltPaymentKeys {
  constructor(private readonly config: AppConfig) {}

  defined(): boolean {
    return Boolean(this.config.altPayment.apiKey && this.config.altPayment.webhookSecret);
  }

  /** @throws ServiceUnavailableException when a key is missing */
  require(): void {
    if (!this.defined()) {
      throw new ServiceUnavailableException('Alternative payments are not configured (ALT_PAYMENT_API_KEY)');
    }
  }
}
