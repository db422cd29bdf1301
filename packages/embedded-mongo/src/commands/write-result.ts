import { toMongoError } from '../errors';
import type { Doc } from '../types';

/**
 * Runs each statement of a write batch, collecting writeErrors; an ordered batch stops at the first
 * error, an unordered one carries on (MongoDB's batch semantics).
 */
export function runBatch<T>(statements: T[], ordered: boolean, run: (statement: T, index: number) => void): Doc[] {
  const writeErrors: Doc[] = [];
  for (let index = 0; index < statements.length; index++) {
    try {
      run(statements[index], index);
    } catch (error) {
      writeErrors.push(toMongoError(error).toWriteError(index));
      if (ordered) break;
    }
  }
  return writeErrors;
}

export function withWriteErrors(reply: Doc, writeErrors: Doc[]): Doc {
  return writeErrors.length ? { ...reply, writeErrors } : reply;
}
