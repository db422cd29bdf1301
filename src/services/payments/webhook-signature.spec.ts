import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook, WebhookSignatureError } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test';
  const payload = '{"id":"evt_1"}';
  const now = 1_700_000_000;

  it('should sign as t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">', () => {
    const hex = createHmac('sha256', secret).update(`${now}.${payload}`).digest('hex');
    expect(signWebhook(payload, secret, now)).toBe(`t=1700000000,v1=${hex}`);
  });

  it('should accept its own signature within 5 minutes either way', () => {
    const header = signWebhook(payload, secret, now);
    expect(() => verifyWebhook(payload, header, secret, now + 300)).not.toThrow();
    expect(() => verifyWebhook(payload, header, secret, now - 300)).not.toThrow();
  });

  it('should accept a header with several v1 signatures if one matches (secret rotation)', () => {
    const header = signWebhook(payload, secret, now).replace('v1=', `v1=${'0'.repeat(64)},v1=`);
    expect(() => verifyWebhook(payload, header, secret, now)).not.toThrow();
  });

  it.each([
    ['an expired timestamp', signWebhook(payload, secret, now - 301), payload, now],
    ['a future timestamp', signWebhook(payload, secret, now + 301), payload, now],
    ['another secret', signWebhook(payload, 'other', now), payload, now],
    ['a changed body', signWebhook(payload, secret, now), '{"id":"evt_2"}', now],
    ['no header', undefined, payload, now],
    ['two timestamps', `t=${now},t=${now},v1=${'a'.repeat(64)}`, payload, now],
    ['a short signature', `t=${now},v1=abcd`, payload, now],
  ])('should refuse %s', (_, header, body, at) => {
    expect(() => verifyWebhook(body, header, secret, at)).toThrow(WebhookSignatureError);
  });
});
