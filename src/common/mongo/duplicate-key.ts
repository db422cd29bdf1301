import { ConflictException } from '@nestjs/common';

/** MongoDB's error code for a unique-index violation (E11000). */
export const DUPLICATE_KEY = 11000;

/** Whether a driver or mongoose error is a unique-index violation. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/** Turns a unique-index violation into a 409 with `message`; anything else is rethrown. */
export function conflictOnDuplicate(message: string): (error: unknown) => never {
  return (error: unknown) => {
    if (isDuplicateKeyError(error)) throw new ConflictException(message);
    throw error;
  };
}
