import { ServiceUnavailableException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { EmbeddedDatabase } from './embedded-database';

/**
 * Once the embedded database's thread has died (the process is about to exit), requests are refused with a 503 at
 * once instead of waiting for a database that will not answer.
 */
export function refuseWithoutDatabase(embedded: EmbeddedDatabase) {
  return (_request: Request, _response: Response, next: NextFunction): void => {
    if (embedded.failure) next(new ServiceUnavailableException('The database is unavailable; try again later'));
    else next();
  };
}
