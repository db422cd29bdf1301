import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { TooManyRequestsException } from '../../common/errors/too-many-requests';
import { Principal } from '../../common/principal';
import { AppConfig } from '../../config/app-config';

const ONE_MINUTE_MS = 60_000;
/** The bucket's name, also the suffix of the `X-RateLimit-*` headers over REST. */
export const BEAN_CALLS = 'bean-calls';

/** Where a caller stands after a counted call. */
export interface RateQuota {
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted call leaves the window. */
  resetSeconds: number;
}

/**
 * The bean-call budget: `BEAN_RATE_LIMIT` calls per sliding minute per principal, or per client address for guests.
 * The key does not name the transport, so REST and STOMP calls of one caller draw on one budget. The storage is
 * the `ThrottlerStorage` provider (in memory by default; one provider to swap for a shared one).
 */
@Injectable()
export class BeanRateLimit {
  constructor(
    @Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /** Counts one call. @throws TooManyRequestsException with the seconds to wait when the budget is spent */
  async consume(principal: Principal | null, clientAddress: string): Promise<RateQuota> {
    const limit = this.config.beanRateLimitPerMinute;
    const key = `${BEAN_CALLS}:${principal ? `principal:${principal.id}` : `address:${clientAddress}`}`;
    const record = await this.storage.increment(key, ONE_MINUTE_MS, limit, ONE_MINUTE_MS, BEAN_CALLS);
    if (record.isBlocked) {
      throw new TooManyRequestsException(`Too many calls: at most ${limit} per minute`, record.timeToBlockExpire);
    }
    return { limit, remaining: Math.max(0, limit - record.totalHits), resetSeconds: record.timeToExpire };
  }
}
