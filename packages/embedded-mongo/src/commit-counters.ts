import { keyString } from './indexes/key-string';

/** What the embedder asks for: which namespaces (`db.collection`) to count writes of, in how many slots. */
export interface CommitCountersOptions {
  /** The namespaces (`<db>.<collection>`) whose writes are counted; omitted: every namespace. */
  namespaces?: string[];
  /** How many counters (default 65,536: 256 KiB); more slots, fewer documents sharing one. */
  slots?: number;
}

const DEFAULT_SLOTS = 65_536;

/**
 * Commit counters: an `Int32Array` over a `SharedArrayBuffer` that the server's thread bumps for every document it
 * writes in a watched namespace (insert, update, replace, delete, of any command), in the same synchronous step as
 * the write is applied in memory, so before it is acknowledged to any client, over any connection. Each write adds 1
 * to the slot of its document (a hash of namespace and `_id`) and to the slot of its namespace; dropping or renaming
 * a watched collection adds 1 to every slot. The embedder reads slots with `Atomics.load` (`value`) to tell whether
 * anything hashed to them was written since it last read them: unchanged slots mean no such write was applied
 * (documents sharing a slot only make it look changed). Slots wrap around at 2^32, which a reader that compares
 * values for equality does not notice unless exactly 2^32 writes happen in between.
 */
export class CommitCounters {
  private readonly slots: Int32Array;
  private readonly watched: Set<string> | undefined;

  constructor(
    readonly buffer: SharedArrayBuffer,
    namespaces?: string[],
  ) {
    this.slots = new Int32Array(buffer);
    this.watched = namespaces && new Set(namespaces);
  }

  /** Counters of `options.slots` slots, all 0. */
  static create(options: CommitCountersOptions): CommitCounters {
    const slots = options.slots ?? DEFAULT_SLOTS;
    if (!Number.isInteger(slots) || slots < 2) throw new Error(`commit counters: slots must be an integer >= 2`);
    return new CommitCounters(new SharedArrayBuffer(slots * Int32Array.BYTES_PER_ELEMENT), options.namespaces);
  }

  /** The namespaces counted, for the server's thread (structured-cloneable); undefined: all. */
  get namespaces(): string[] | undefined {
    return this.watched && [...this.watched];
  }

  watches(ns: string): boolean {
    return !this.watched || this.watched.has(ns);
  }

  /** The slot of the document whose `_id` is `id` in `ns` (as the driver sends it: a string, an ObjectId...). */
  documentSlot(ns: string, id: unknown): number {
    return this.slotOf(`${ns}\u0000${keyString([id])}`);
  }

  /** The slot every write of `ns` adds to. */
  collectionSlot(ns: string): number {
    return this.slotOf(`${ns}\u0001`);
  }

  /** The slot's current value. */
  value(slot: number): number {
    return Atomics.load(this.slots, slot);
  }

  /** Server side: a write of the document stored under `key` (`keyString([_id])`) in `ns`. */
  documentWritten(ns: string, key: string): void {
    if (!this.watches(ns)) return;
    Atomics.add(this.slots, this.slotOf(`${ns}\u0000${key}`), 1);
    Atomics.add(this.slots, this.collectionSlot(ns), 1);
  }

  /** Server side: `ns` dropped (or renamed away): every document of it changed, so every slot moves. */
  collectionDropped(ns: string): void {
    if (!this.watches(ns)) return;
    for (let slot = 0; slot < this.slots.length; slot++) Atomics.add(this.slots, slot, 1);
  }

  /** FNV-1a over the UTF-16 code units of `text`, reduced to a slot. */
  private slotOf(text: string): number {
    let hash = 0x811c9dc5;
    for (let at = 0; at < text.length; at++) {
      hash ^= text.charCodeAt(at);
      hash = Math.imul(hash, 0x01000193);
    }
    return (hash >>> 0) % this.slots.length;
  }
}
