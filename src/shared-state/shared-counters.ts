import type Redis from 'ioredis';
import { TtlCache } from '../common/ttl-cache';
import { SharedRedis } from './shared-redis';

/** Room for many keys, so that spraying new ones cannot push a victim's counters out early. */
const MAX_LOCAL_KEYS = 100_000;

/**
 * Counters in fixed windows, seen by every instance when Redis is configured (each key's window starts at its
 * first increment). Without Redis they are this process's own.
 */
export abstract class SharedCounters {
  /** Counts one hit of `key` and returns the hits in its current window. */
  abstract increment(key: string, windowMs: number): Promise<number>;
  /** The hits of `key` in its current window, 0 when it has none. */
  abstract count(key: string): Promise<number>;
  abstract reset(key: string): Promise<void>;
  /** True for the first claim of `key` within `ms`, false for later ones until it expires. */
  abstract claim(key: string, ms: number): Promise<boolean>;
}

export class LocalCounters extends SharedCounters {
  private readonly counts = new TtlCache<{ hits: number }>(60_000, MAX_LOCAL_KEYS);

  increment(key: string, windowMs: number): Promise<number> {
    const counter = this.counts.get(key);
    if (counter) return Promise.resolve(++counter.hits);
    this.counts.set(key, { hits: 1 }, windowMs);
    return Promise.resolve(1);
  }

  count(key: string): Promise<number> {
    return Promise.resolve(this.counts.get(key)?.hits ?? 0);
  }

  reset(key: string): Promise<void> {
    this.counts.delete(key);
    return Promise.resolve();
  }

  claim(key: string, ms: number): Promise<boolean> {
    if (this.counts.get(key)) return Promise.resolve(false);
    this.counts.set(key, { hits: 1 }, ms);
    return Promise.resolve(true);
  }
}

/** INCR and, on a key's first hit, its expiry: one round trip, atomic. */
const INCREMENT_IN_WINDOW = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return hits`;

export class RedisCounters extends SharedCounters {
  constructor(private readonly redis: Redis) {
    super();
  }

  async increment(key: string, windowMs: number): Promise<number> {
    return Number(await this.redis.eval(INCREMENT_IN_WINDOW, 1, key, windowMs));
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(key)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async claim(key: string, ms: number): Promise<boolean> {
    return (await this.redis.set(key, '1', 'PX', ms, 'NX')) === 'OK';
  }
}

/**
 * Redis counters while Redis answers, this process's own while it does not (see {@link SharedRedis.orLocal}). The
 * in-process counts of an outage are not carried over to Redis when it returns: a window at most.
 */
export class FailSoftCounters extends SharedCounters {
  private readonly local = new LocalCounters();

  constructor(
    private readonly redis: SharedRedis,
    private readonly remote: RedisCounters,
  ) {
    super();
  }

  increment(key: string, windowMs: number): Promise<number> {
    return this.redis.orLocal(
      () => this.remote.increment(key, windowMs),
      () => this.local.increment(key, windowMs),
    );
  }

  count(key: string): Promise<number> {
    return this.redis.orLocal(
      () => this.remote.count(key),
      () => this.local.count(key),
    );
  }

  reset(key: string): Promise<void> {
    return this.redis.orLocal(
      () => this.remote.reset(key),
      () => this.local.reset(key),
    );
  }

  claim(key: string, ms: number): Promise<boolean> {
    return this.redis.orLocal(
      () => this.remote.claim(key, ms),
      () => this.local.claim(key, ms),
    );
  }
}

/** Nest provider: Redis counters (in-process during an outage) when `REDIS_URL` is set, in-process ones otherwise. */
export const sharedCountersProvider = {
  provide: SharedCounters,
  inject: [SharedRedis],
  useFactory: (redis: SharedRedis): SharedCounters =>
    redis.client ? new FailSoftCounters(redis, new RedisCounters(redis.client)) : new LocalCounters(),
};
