import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying the signature of a webhook body (DESIGN §8). */
export const SIGNATURE_HEADER = 'webhook-signature';
/** Signatures older or newer than this are refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {}

/** `t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">` for `payload` (the exact body bytes as text). */
export function signWebhook(payload: string, secret: string, nowSeconds = unixNow()): string {
  return `t=${nowSeconds},v1=${hmac(`${nowSeconds}.${payload}`, secret)}`;
}

/**
 * Checks `header` against the raw body: well formed, within the tolerance of now, and one `v1` matching in
 * constant time.
 * @throws WebhookSignatureError naming what is wrong (never the expected signature)
 */
export function verifyWebhook(
  payload: string,
  header: string | undefined,
  secret: string,
  nowSeconds = unixNow(),
): void {
  const { timestamp, signatures } = parseHeader(header);
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('Signature timestamp outside the tolerance');
  }
  const expected = Buffer.from(hmac(`${timestamp}.${payload}`, secret), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('Signature does not match');
}

function parseHeader(header: string | undefined): { timestamp: number; signatures: string[] } {
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const timestamps = parts.filter(([key]) => key === 't').map(([, value]) => value);
  const signatures = parts.filter(([key, value]) => key === 'v1' && /^[0-9a-f]{64}$/.test(value ?? ''));
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0] ?? '') || signatures.length === 0) {
    throw new WebhookSignatureError(`Malformed ${SIGNATURE_HEADER} header`);
  }
  return { timestamp: Number(timestamps[0]), signatures: signatures.map(([, value]) => value) };
}

function hmac(text: string, secret: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('hex');
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
