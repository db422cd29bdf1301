import { join } from 'node:path';
import { open } from 'lmdb';
import { fromBson } from '../bson/codec';
import { Journal } from './journal';
import { checkStore, DATA_FILE, JOURNAL_BYTES, JOURNAL_FILE, StoreDamagedError } from './store-check';
import { decodeWrites } from './store-writes';

export interface StoreReport {
  collections: number;
  documents: number;
  /** Pages of the lmdb file reachable from its newest meta page. */
  pages: number;
  /** Journaled writes the next open replays into lmdb. */
  journaledWrites: number;
}

/**
 * Reads the whole store in `dir` without changing it: the file check of {@link checkStore}, then every catalog entry
 * and document decoded from BSON (read-only lmdb transaction) and every journal record decoded. Throws
 * {@link StoreDamagedError} for damage, a plain Error when there is no store.
 */
export function verifyStore(dir: string): StoreReport {
  const { state, pages, journal } = checkStore(dir);
  if (state === 'new') throw new Error(`there is no store in ${dir} (no ${DATA_FILE})`);
  const root = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 4 });
  try {
    const catalog = root.openDB<Buffer, string>({ name: 'catalog', encoding: 'binary' });
    const docs = root.openDB<Buffer, Buffer>({ name: 'docs', encoding: 'binary', keyEncoding: 'binary' });
    const collections = decodeAll(dir, catalog.getRange(), (key) => `collection ${key}`);
    const documents = decodeAll(dir, docs.getRange(), (key) => `document ${key.toString('utf8').replace('\0', ' ')}`);
    const journaledWrites = journal === 'absent' ? 0 : countJournaled(dir);
    return { collections, documents, pages, journaledWrites };
  } finally {
    void root.close();
  }
}

function decodeAll<K>(dir: string, entries: Iterable<{ key: K; value: Buffer }>, name: (key: K) => string): number {
  let count = 0;
  for (const { key, value } of entries) {
    try {
      fromBson(value);
    } catch (error) {
      throw new StoreDamagedError(dir, DATA_FILE, `${name(key)} is not valid BSON (${(error as Error).message})`);
    }
    count++;
  }
  return count;
}

function countJournaled(dir: string): number {
  const records = Journal.readRecords(join(dir, JOURNAL_FILE), JOURNAL_BYTES);
  return records.reduce((sum, record) => sum + decodeWrites(record).length, 0);
}
