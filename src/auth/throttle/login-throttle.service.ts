import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config';
import { TtlCache } from '../ttl-cache';

const WINDOW_MS = 60_000;
/** Room for many usernames, so that spraying new ones cannot push a victim's counters out early. */
const MAX_TRACKED = 100_000;

interface Counter {
  count: number;
}

/**
 * Limits credential attempts per client and username (DESIGN §9), and locks a username out for a while after
 * repeated failures from anywhere. Unknown usernames are counted the same way, so neither reveals which exist.
 * State is per instance: behind a load balancer each instance enforces its own share.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);
  private readonly attempts = new TtlCache<Counter>(WINDOW_MS, MAX_TRACKED);
  private readonly failures: TtlCache<Counter>;
  private readonly lockouts: TtlCache<true>;

  constructor(private readonly config: AppConfig) {
    this.failures = new TtlCache(config.authLockoutSeconds * 1000, MAX_TRACKED);
    this.lockouts = new TtlCache(config.authLockoutSeconds * 1000, MAX_TRACKED);
  }

  /** Counts one attempt. @throws HttpException 429 when over the rate or while the username is locked out. */
  registerAttempt(client: string, username: string): void {
    const name = normalize(username);
    const attempts = this.increment(this.attempts, `${client}|${name}`);
    if (attempts > this.config.authRateLimit || this.lockouts.get(name)) {
      throw new HttpException('Too many attempts; try again later', HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  recordFailure(username: string): void {
    const name = normalize(username);
    if (this.increment(this.failures, name) < this.config.authLockoutThreshold) return;
    this.failures.delete(name);
    this.lockouts.set(name, true);
    this.logger.warn(`Username "${name}" locked out for ${this.config.authLockoutSeconds} s after repeated failed logins`);
  }

  recordSuccess(username: string): void {
    this.failures.delete(normalize(username));
  }

  /** Counters keep the expiry of their first increment: a fixed window, not one that slides with every attempt. */
  private increment(cache: TtlCache<Counter>, key: string): number {
    const counter = cache.get(key);
    if (counter) return ++counter.count;
    cache.set(key, { count: 1 });
    return 1;
  }
}

function normalize(username: string): string {
  return username.trim().toLowerCase().slice(0, 256);
}
