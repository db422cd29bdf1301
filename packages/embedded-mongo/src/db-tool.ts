#!/usr/bin/env node
import {
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { lockDirectory, lockHolder, LOCK_FILE } from './storage/dir-lock';
import { LmdbStore } from './storage/lmdb-store';
import { DATA_FILE, StoreDamagedError } from './storage/store-check';
import { verifyStore } from './storage/store-verify';
import { URI_FILE } from './worker/listener';

/**
 * Operations on a store's directory (`npm run db:check | db:backup | db:restore` from the repository root):
 *   check   --dbpath DIR            reads the whole store without changing it; exit 0 sound, 1 damaged, 2 not checked
 *   backup  --dbpath DIR --to DIR   a consistent copy; through the server serving DIR if one does, else offline
 *   restore --dbpath DIR --from DIR the checked backup into DIR; what DIR held is moved aside, never deleted
 * `--dbpath` defaults to `$DATA_DIR/db` (the app's store; DATA_DIR defaults to ./data).
 */
const EXIT_DAMAGED = 1;
const EXIT_NOT_DONE = 2;

class NotDone extends Error {}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { dbpath: { type: 'string' }, to: { type: 'string' }, from: { type: 'string' } },
  });
  const dbPath = resolve(values.dbpath ?? join(process.env.DATA_DIR ?? './data', 'db'));
  const action = positionals[0];
  if (action === 'check') return check(dbPath);
  if (action === 'backup') return backup(dbPath, required(values.to, '--to'));
  if (action === 'restore') return restore(dbPath, required(values.from, '--from'));
  throw new NotDone('usage: db-tool check|backup|restore [--dbpath DIR] [--to DIR] [--from DIR]');
}

function check(dbPath: string): void {
  if (!existsSync(dbPath)) throw new NotDone(`there is no store in ${dbPath} (no such directory)`);
  whileNotServed(dbPath, 'check it offline; a backup taken from it can be checked instead', () => {
    const report = verifyStore(dbPath);
    console.log(
      `OK: store ${dbPath} is sound: ${report.collections} collections, ${report.documents} documents, ` +
        `${report.pages} pages, ${report.journaledWrites} journaled writes to replay at the next start`,
    );
  });
}

async function backup(dbPath: string, to: string): Promise<void> {
  const target = resolve(to);
  const uri = servingUri(dbPath);
  if (uri) {
    const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.db('admin').command({ embeddedMongoBackup: 1, to: target });
    } finally {
      await client.close();
    }
  } else {
    const store = LmdbStore.open(dbPath);
    try {
      await store.backup(target);
    } finally {
      await store.close();
    }
  }
  const report = verifyStore(target);
  console.log(
    `OK: backup of ${dbPath} written to ${target} (${uri ? 'online' : 'offline'}): ${report.documents} documents`,
  );
}

function restore(dbPath: string, from: string): void {
  const source = resolve(from);
  const report = verifyStore(source);
  whileNotServed(dbPath, 'restore into it; stop the app first', () => {
    const aside = moveAside(dbPath);
    copyDurably(join(source, DATA_FILE), join(dbPath, DATA_FILE));
    verifyStore(dbPath);
    console.log(
      `OK: restored ${source} into ${dbPath} (${report.documents} documents)` +
        (aside ? `; what it held before is in ${aside}` : ''),
    );
  });
}

/** Runs `work` holding the directory's lock, so that no server opens the store meanwhile. */
function whileNotServed(dbPath: string, cannot: string, work: () => void): void {
  mkdirSync(dbPath, { recursive: true });
  let unlock: () => void;
  try {
    unlock = lockDirectory(dbPath);
  } catch (error) {
    throw new NotDone(`${(error as Error).message}: cannot ${cannot}`);
  }
  try {
    work();
  } finally {
    unlock();
  }
}

/** The URI of the server serving `dbPath` now, if one does (its lock is held by a running process). */
function servingUri(dbPath: string): string | undefined {
  if (!existsSync(join(dbPath, DATA_FILE))) throw new NotDone(`there is no store in ${dbPath} (no ${DATA_FILE})`);
  const holder = lockHolder(dbPath);
  if (holder === undefined) return undefined;
  const file = join(dbPath, URI_FILE);
  if (!existsSync(file)) throw new NotDone(`${dbPath} is in use by process ${holder}, which names no URI in ${file}`);
  return readFileSync(file, 'utf8').trim();
}

/** Moves the store's files (not the lock) into a sibling directory; returns it, or undefined when there were none. */
function moveAside(dbPath: string): string | undefined {
  const files = readdirSync(dbPath).filter((name) => name !== LOCK_FILE);
  if (files.length === 0) return undefined;
  const aside = join(
    dirname(dbPath),
    `${basename(dbPath)}.before-restore-${new Date().toISOString().replace(/:/g, '-')}`,
  );
  mkdirSync(aside);
  for (const name of files) renameSync(join(dbPath, name), join(aside, name));
  return aside;
}

function copyDurably(from: string, to: string): void {
  copyFileSync(from, to);
  for (const path of [to, dirname(to)]) {
    const fd = openSync(path, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

function required(value: string | undefined, option: string): string {
  if (!value) throw new NotDone(`${option} is required`);
  return value;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof StoreDamagedError) {
      console.error(`DAMAGED: ${error.message}`);
      process.exit(EXIT_DAMAGED);
    }
    console.error(`NOT DONE: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(EXIT_NOT_DONE);
  },
);
