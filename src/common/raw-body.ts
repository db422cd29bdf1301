import type { Request } from 'express';

/** The routes that verify a signature over the exact bytes received (`verifiedPayload`); only they keep them. */
const SIGNED_WEBHOOK_PATHS = new Set(['/api/v1/cardpayment', '/api/v1/delivery/webhook', '/api/v1/altpayment/webhook']);

/** The JSON body parser's `verify` hook: keeps `rawBody` for the signed webhooks, drops it for every other route. */
export function keepRawBodyOfSignedWebhooks(request: Request & { rawBody?: Buffer }, _: unknown, buffer: Buffer): void {
  const path = request.path.length > 1 && request.path.endsWith('/') ? request.path.slice(0, -1) : request.path;
  if (SIGNED_WEBHOOK_PATHS.has(path)) request.rawBody = buffer;
}
