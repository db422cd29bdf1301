import { BadRequestException, RawBodyRequest } from '@nestjs/common';
import { Request } from 'express';
import { verifyWebhook, WebhookSignatureError } from './webhook-signature';

/** The raw body, once its signature is verified; shared by every signed webhook endpoint. */
export function verifiedPayload(
  request: RawBodyRequest<Request>,
  signature: string | undefined,
  secret: string,
): string {
  const payload = request.rawBody?.toString('utf8') ?? '';
  try {
    verifyWebhook(payload, signature, secret);
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw new BadRequestException(error.message);
    throw error;
  }
  return payload;
}
