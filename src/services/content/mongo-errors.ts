import { ConflictException } from '@nestjs/common';

/** Turns a unique-index violation into a 409 with `message`; anything else is rethrown. */
export function conflictOnDuplicate(message: string): (error: unknown) => never {
  return (error: unknown) => {
    if ((error as { code?: number }).code === 11000) throw new ConflictException(message);
    throw error;
  };
}
