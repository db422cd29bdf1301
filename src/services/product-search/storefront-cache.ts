import { CommitCounters } from '@ccb/embedded-mongo';
import { Injectable } from '@nestjs/common';
import { jsonTextOf } from '../../bean';
import { AppConfig } from '../../config/app-config';
import { DATABASE_NAME, EmbeddedDatabase } from '../../database/embedded-database';
import { ATTRIBUTES_REVISION } from '../catalogue/attribute-revision';
import {
  COUNTED_COLLECTIONS,
  FACET_COLLECTION,
  INDEX_COLLECTION,
  LISTING_REVISION,
  REVISION_COLLECTION,
} from '../catalogue/storefront-indexer';

/** Most results kept, whatever their size (each costs its key and bookkeeping besides its bytes). */
const MAX_RESULTS = 20_000;
/** What a result costs besides its JSON text: its key, its slots, the map's entry (an estimate). */
const RESULT_OVERHEAD_BYTES = 200;

/**
 * The documents and collections a result was computed from, with the values of their commit counters
 * (`CommitCounters`) taken before they were read: the result holds while none of those counters moves.
 */
export class Dependencies {
  readonly slots: number[] = [];
  readonly values: number[] = [];
  /** The index collection's counter when the computation started, for the entries only known once read (`shown`). */
  private readonly indexValue: number;
  private shownAfterRead = false;

  constructor(private readonly counted: CountedSlots) {
    this.indexValue = counted.counters.value(counted.indexSlot);
  }

  /** The result reads the document `id` of `collection`: call before reading it. */
  document(collection: string, id: string): void {
    this.depend(this.counted.documentSlot(collection, id));
  }

  /** The result reads any documents of `collection`: call before reading them. */
  collection(collection: string): void {
    this.depend(this.counted.collectionSlot(collection));
  }

  /**
   * The result shows the storefront index entries `ids`, found by a read (so only known after it): their counters
   * are taken now, and the result is kept only if no write of the index at all came between the start of the
   * computation and the end (`sound`), so that they are the counters of the entries as read.
   */
  shown(ids: string[]): void {
    for (const id of ids) this.document(INDEX_COLLECTION, id);
    this.shownAfterRead = true;
  }

  /** Whether the counters taken are those of what was read (see `shown`). */
  sound(): boolean {
    return !this.shownAfterRead || this.counted.counters.value(this.counted.indexSlot) === this.indexValue;
  }

  private depend(slot: number): void {
    this.slots.push(slot);
    this.values.push(this.counted.counters.value(slot));
  }
}

/** Documents most results depend on (the revisions): their slots are computed once. */
const FIXED_DOCUMENTS: [collection: string, id: string][] = [
  [REVISION_COLLECTION, LISTING_REVISION],
  [FACET_COLLECTION, ATTRIBUTES_REVISION],
];

/**
 * The counters with the namespaces and slots that do not change from call to call (of the counted collections and of
 * the revisions), computed once when the counters resolve rather than hashed again on every call.
 */
export class CountedSlots {
  readonly indexSlot: number;
  private readonly namespaces: Map<string, string>;
  private readonly collectionSlots: Map<string, number>;
  /** By collection, then id (the ids and names are the same strings each call: their hashes are V8's, kept). */
  private readonly fixedDocumentSlots = new Map<string, Map<string, number>>();

  constructor(readonly counters: CommitCounters) {
    this.namespaces = new Map(COUNTED_COLLECTIONS.map((name) => [name, namespace(name)]));
    this.collectionSlots = new Map(
      COUNTED_COLLECTIONS.map((name) => [name, counters.collectionSlot(this.namespaceOf(name))]),
    );
    for (const [name, id] of FIXED_DOCUMENTS) {
      const slots = this.fixedDocumentSlots.get(name) ?? new Map<string, number>();
      slots.set(id, counters.documentSlot(this.namespaceOf(name), id));
      this.fixedDocumentSlots.set(name, slots);
    }
    this.indexSlot = this.collectionSlot(INDEX_COLLECTION);
  }

  documentSlot(collection: string, id: string): number {
    const fixed = this.fixedDocumentSlots.get(collection)?.get(id);
    return fixed ?? this.counters.documentSlot(this.namespaceOf(collection), id);
  }

  collectionSlot(collection: string): number {
    return this.collectionSlots.get(collection) ?? this.counters.collectionSlot(this.namespaceOf(collection));
  }

  private namespaceOf(collection: string): string {
    return this.namespaces.get(collection) ?? namespace(collection);
  }
}

/** What a computation records of its reads when the cache is off: nothing. */
const UNRECORDED = {
  document: () => undefined,
  collection: () => undefined,
  shown: () => undefined,
} as unknown as Dependencies;

interface Kept {
  value: unknown;
  slots: number[];
  values: number[];
  bytes: number;
}

/**
 * The storefront's result cache: results of its read calls by call, arguments and language, each answered again from
 * memory while the commit counters of what it was computed from are unchanged (see the catalogue README, "Storefront
 * result cache"). The embedded database bumps those counters for every write of the storefront index, its counters
 * and revisions before any client, on any instance, has the write acknowledged, so a write shows on the next call.
 * Off with MONGODB_URI (no shared counters) and with `STOREFRONT_CACHE_MB=0`. Bounded by `STOREFRONT_CACHE_MB` (the
 * results' JSON text) and `MAX_RESULTS`, least recently used first out. A kept result is shared by every caller
 * answered from it: callers must not change it.
 */
@Injectable()
export class StorefrontCache {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  private resolved: CountedSlots | null | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly embedded: EmbeddedDatabase,
  ) {}

  /**
   * The result of `call` with `args` in `lang`: a kept one whose dependencies are unchanged, else `compute`'s, which
   * records its dependencies before each read. A failed computation is not kept.
   */
  async answer<T>(
    call: string,
    args: unknown[],
    lang: string,
    compute: (dependencies: Dependencies) => Promise<T>,
  ): Promise<T> {
    const counted = this.counted();
    if (!counted) return compute(UNRECORDED);
    const key = `${call}\u0000${lang}\u0000${JSON.stringify(args)}`;
    const found = this.kept.get(key);
    if (found && unchanged(found, counted.counters)) {
      // Most recently used last: the eviction takes the first.
      this.kept.delete(key);
      this.kept.set(key, found);
      return found.value as T;
    }
    if (found) this.forget(key, found);
    const dependencies = new Dependencies(counted);
    const value = await compute(dependencies);
    if (dependencies.sound()) this.keep(key, value, dependencies);
    return value;
  }

  /** The embedded database's counters when the cache is on; resolved at the first call (after the start). */
  private counted(): CountedSlots | null {
    if (this.resolved === undefined) {
      const counters = this.config.storefrontCacheBytes > 0 ? this.embedded.commitCounters : undefined;
      const complete = counters && COUNTED_COLLECTIONS.every((name) => counters.watches(namespace(name)));
      this.resolved = complete ? new CountedSlots(counters) : null;
    }
    return this.resolved;
  }

  private keep(key: string, value: unknown, { slots, values }: Dependencies): void {
    // A `JsonText` result (a listing) is kept as its text and measured by it, not parsed.
    const bytes = (jsonTextOf(value)?.length ?? 0) * 2 + key.length * 2 + RESULT_OVERHEAD_BYTES;
    if (bytes > this.config.storefrontCacheBytes) return;
    const replaced = this.kept.get(key);
    if (replaced) this.forget(key, replaced);
    this.kept.set(key, { value, slots, values, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.config.storefrontCacheBytes && this.kept.size <= MAX_RESULTS) break;
      this.forget(oldest, entry);
    }
  }

  private forget(key: string, entry: Kept): void {
    this.kept.delete(key);
    this.bytes -= entry.bytes;
  }
}

function unchanged({ slots, values }: Kept, counters: CommitCounters): boolean {
  for (let at = 0; at < slots.length; at++) if (counters.value(slots[at]) !== values[at]) return false;
  return true;
}

function namespace(collection: string): string {
  return `${DATABASE_NAME}.${collection}`;
}
