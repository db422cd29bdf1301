import { Long } from 'bson';
import { batchBytes } from '../ops/known-bytes';
import { MongoError } from '../errors';
import type { Doc } from '../types';

/** Replies stay under the 16 MiB BSON limit with room for the envelope. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 16 * 1024;
const DEFAULT_FIRST_BATCH = 101;

/** MongoDB closes cursors idle for 10 minutes (cursorTimeoutMillis). */
const CURSOR_TIMEOUT_MS = 10 * 60 * 1000;

interface OpenCursor {
  ns: string;
  docs: Iterator<Doc>;
  /** The next document, read ahead to know whether the cursor is exhausted. */
  next: IteratorResult<Doc>;
  lastUsed: number;
}

/**
 * Server-wide open cursors over results: arrays (aggregate, list*) or lazy iterables (find pulls from its
 * query plan only as batches are asked for).
 */
export class CursorRegistry {
  private readonly cursors = new Map<string, OpenCursor>();
  private nextId = 1;

  /** The `cursor` reply field of find/aggregate/list* commands; keeps the rest open if any remains. */
  open(ns: string, docs: Iterable<Doc>, batchSize?: number, singleBatch = false): Doc {
    const iterator = docs[Symbol.iterator]();
    const cursor: OpenCursor = { ns, docs: iterator, next: iterator.next(), lastUsed: Date.now() };
    // An initial batchSize of 0 opens the cursor without returning documents (MongoDB semantics).
    const firstBatch = batchSize === 0 ? [] : this.take(cursor, batchSize ?? DEFAULT_FIRST_BATCH);
    let id = Long.ZERO;
    if (!singleBatch && !cursor.next.done) {
      id = Long.fromNumber(this.nextId++);
      this.cursors.set(id.toString(), cursor);
    }
    return { cursor: { firstBatch, id, ns } };
  }

  /** `id` arrives as a number or a Long depending on its size (BSON long promotion). */
  getMore(id: unknown, ns: string, batchSize?: number): Doc {
    const key = String(id);
    const cursor = this.cursors.get(key);
    if (!cursor || cursor.ns !== ns) throw new MongoError('CursorNotFound', `cursor id ${key} not found`);
    cursor.lastUsed = Date.now();
    const nextBatch = this.take(cursor, batchSize ?? 0);
    const exhausted = cursor.next.done === true;
    if (exhausted) this.cursors.delete(key);
    return { cursor: { nextBatch, id: exhausted ? Long.ZERO : Long.fromString(key), ns } };
  }

  kill(ids: Long[]): { killed: Long[]; notFound: Long[] } {
    const killed = ids.filter((id) => this.cursors.delete(id.toString()));
    return { killed, notFound: ids.filter((id) => !killed.includes(id)) };
  }

  closeIdle(now = Date.now()): void {
    for (const [id, cursor] of this.cursors) if (now - cursor.lastUsed > CURSOR_TIMEOUT_MS) this.cursors.delete(id);
  }

  /** batchSize 0 (getMore) means "as many as fit". */
  private take(cursor: OpenCursor, batchSize: number): Doc[] {
    const batch: Doc[] = [];
    let bytes = 0;
    while (!cursor.next.done && (batchSize <= 0 || batch.length < batchSize)) {
      const doc = cursor.next.value;
      bytes += batchBytes(doc).byteLength;
      if (bytes > MAX_BATCH_BYTES && batch.length > 0) break;
      batch.push(doc);
      cursor.next = cursor.docs.next();
    }
    return batch;
  }
}
