import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'embedded-mongo.lock';
/** Directories held by servers of this process (the pid in the file cannot tell them apart). */
const heldHere = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running process (not this one) holding the lock of `path`, if any. */
export function lockHolder(path: string): number | undefined {
  let holder: number;
  try {
    holder = Number(readFileSync(join(path, LOCK_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  return holder !== process.pid && Number.isInteger(holder) && holder > 0 && isRunning(holder) ? holder : undefined;
}

/**
 * Claims the data directory (like mongod.lock): two servers on one directory would each keep their
 * own in-memory view of the same files. A lock left by a process that is gone is taken over (a
 * restarted container may even reuse the pid). Returns the release function.
 */
export function lockDirectory(path: string): () => void {
  const dir = resolve(path);
  if (heldHere.has(dir)) throw new Error(`data directory ${path} is already open in this process`);
  const file = join(dir, LOCK_FILE);
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (error) {
    // Only an existing lock file may mean "held"; EACCES, ENOSPC, EROFS... are what they are.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const holder = Number(readFileSync(file, 'utf8'));
    if (holder !== process.pid && Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
      throw new Error(`data directory ${path} is in use by process ${holder}`, { cause: error });
    }
    writeFileSync(file, String(process.pid));
  }
  heldHere.add(dir);
  return () => {
    heldHere.delete(dir);
    rmSync(file, { force: true });
  };
}
