import { BadRequestException, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { SelfUrl } from '../payments';

/** Longest `returnUrl` accepted (browsers and providers handle far more; a shop's own URLs need far less). */
export const MAX_RETURN_URL_LENGTH = 2000;

/**
 * Where a 3-D Secure challenge may send the buyer back: an absolute http(s) URL on `PUBLIC_URL`'s origin (the
 * listening address when unset) or one of `PAYMENT_RETURN_ORIGINS`, never another site (no open redirect).
 */
@Injectable()
export class PaymentReturnUrls {
  constructor(
    private readonly config: AppConfig,
    private readonly self: SelfUrl,
  ) {}

  /** The URL, normalized; 400 for anything else. */
  check(returnUrl: string): string {
    const url = URL.parse(returnUrl);
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password) {
      throw new BadRequestException('returnUrl must be an absolute http(s) URL without credentials');
    }
    if (!this.allowedOrigins().includes(url.origin)) {
      throw new BadRequestException('returnUrl must lead to PUBLIC_URL or one of PAYMENT_RETURN_ORIGINS');
    }
    return url.href;
  }

  private allowedOrigins(): string[] {
    return [this.self.public(), ...this.config.paymentReturnOrigins].map((origin) => new URL(origin).origin);
  }
}
