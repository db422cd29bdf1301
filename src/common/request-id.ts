import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTABLE_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * Express middleware, installed before the body parser so that even a 413 carries the id: takes a well-formed
 * incoming `X-Request-Id` or makes one, and echoes it in the response.
 */
export function assignRequestId(request: Request, response: Response, next: NextFunction): void {
  const incoming = request.header(REQUEST_ID_HEADER);
  const id = incoming && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = id;
  response.setHeader(REQUEST_ID_HEADER, id);
  next();
}
