import { HttpException, HttpStatus } from '@nestjs/common';

/** What a 429 without a known wait tells the client to wait: the rate limits here count per minute. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** A 429 that knows when the caller may try again; both transports send it as `Retry-After` (seconds). */
export class TooManyRequestsException extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * The `Retry-After` of an error: its own wait for a {@link TooManyRequestsException}, the default wait for any other
 * 429 (the login throttle's), undefined for every other error.
 */
export function retryAfterSeconds(exception: unknown): number | undefined {
  if (exception instanceof TooManyRequestsException) return Math.max(1, Math.ceil(exception.retryAfterSeconds));
  const status = exception instanceof HttpException ? exception.getStatus() : undefined;
  return status === HttpStatus.TOO_MANY_REQUESTS ? DEFAULT_RETRY_AFTER_SECONDS : undefined;
}
