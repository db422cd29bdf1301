import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

const REQUEST_ID_HEADER = 'X-Request-Id';
const ACCEPTABLE_REQUEST_ID = /^[\w.-]{1,64}$/;

/** Takes a well-formed incoming `X-Request-Id` or makes one, and echoes it in the response (see `httpFront`). */
export function assignRequestId(request: Request, response: Response): void {
  const incoming = request.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTABLE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (request as Request & { id: string }).id = id;
  response.setHeader(REQUEST_ID_HEADER, id);
}
