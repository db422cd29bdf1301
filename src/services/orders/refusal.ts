import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';

/**
 * Whether a transition asked for by a provider's event was refused for the order's sake (malformed or unknown
 * order, or a status that does not allow it): such events are logged and acknowledged, not retried.
 */
export function isRefusal(error: unknown): error is Error {
  return [BadRequestException, NotFoundException, ConflictException].some((type) => error instanceof type);
}
