import { LRUCache } from 'lru-cache';

/**
 * A bounded in-memory map whose entries expire after `ttlMs`, on `lru-cache`: when full, the least recently used
 * entry goes first, so memory stays bounded whatever callers send. Values may be `null` (lru-cache refuses it, so
 * each value travels boxed), and a lifetime of zero or less stores nothing (lru-cache would read 0 as "forever").
 */
export class TtlCache<V> {
  private readonly entries: LRUCache<string, { value: V }>;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    // Expiry is read from the wall clock (`Date.now`), as callers and their fake-timer tests count time.
    this.entries = new LRUCache({ max: maxEntries, ttl: Math.max(ttlMs, 1), perf: Date });
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, { value }, { ttl: ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
