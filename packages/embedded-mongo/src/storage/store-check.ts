import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Journal } from './journal';
import { checkLmdbFile, LmdbFileDamage } from './lmdb-file-check';

export const DATA_FILE = 'data.mdb';
export const JOURNAL_FILE = 'journal.wal';
export const JOURNAL_BYTES = 16 * 1024 * 1024;
/**
 * Written once a store is created (lmdb file and journal in place), so that a store whose files went missing is
 * told from a directory where none was ever made. Stores made before it existed have none and are checked all the
 * same; the next open adds it.
 */
export const STORE_MARKER = 'embedded-mongo.store';

/** The store cannot be trusted: the server refuses to open it and changes nothing. */
export class StoreDamagedError extends Error {
  override readonly name = 'StoreDamagedError';
  readonly code = 'StoreDamaged';

  constructor(
    readonly dir: string,
    file: string,
    problem: string,
  ) {
    super(
      `embedded database store ${dir} is damaged: ${join(dir, file)}: ${problem}. It was not opened and nothing ` +
        `in it was changed. To recover, restore the latest backup (npm run db:restore -- --from <backup> ` +
        `--dbpath ${dir}), or move the directory aside to start with an empty store; npm run db:check -- ` +
        `--dbpath ${dir} checks it again.`,
    );
  }
}

export interface StoreCheck {
  /** 'new': no store here yet (one may be created); 'existing': a store whose files passed the check. */
  state: 'new' | 'existing';
  /** Pages of the lmdb file reachable from its newest meta page. */
  pages: number;
  /** Whether the journal holds records (writes to replay). */
  journal: 'absent' | 'fresh' | 'used';
}

/**
 * Checks the files of the store in `dir` before lmdb maps them (lmdb trusts its file; a damaged one crashes the
 * process). Throws {@link StoreDamagedError} naming the file and the way to recover; a file that cannot be read
 * (`EACCES`...) throws as it is.
 */
export function checkStore(dir: string): StoreCheck {
  const journal = inspectJournal(dir);
  const marked = existsSync(join(dir, STORE_MARKER));
  if (!existsSync(join(dir, DATA_FILE))) {
    if (marked || journal === 'used') throw new StoreDamagedError(dir, DATA_FILE, 'the file is missing');
    return { state: 'new', pages: 0, journal };
  }
  let pages: number;
  try {
    pages = checkLmdbFile(join(dir, DATA_FILE));
  } catch (error) {
    if (error instanceof LmdbFileDamage) throw new StoreDamagedError(dir, DATA_FILE, error.message);
    throw error;
  }
  if (marked && journal === 'absent') throw new StoreDamagedError(dir, JOURNAL_FILE, 'the file is missing');
  return { state: 'existing', pages, journal };
}

/** Marks `dir` as holding a store (see {@link STORE_MARKER}). */
export function markStore(dir: string): void {
  const marker = join(dir, STORE_MARKER);
  if (!existsSync(marker)) writeFileSync(marker, `${JSON.stringify({ format: 'lmdb+journal', version: 1 })}\n`);
}

function inspectJournal(dir: string): StoreCheck['journal'] {
  try {
    return Journal.inspect(join(dir, JOURNAL_FILE), JOURNAL_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw new StoreDamagedError(dir, JOURNAL_FILE, (error as Error).message);
  }
}
