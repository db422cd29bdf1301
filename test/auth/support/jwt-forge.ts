import { createHmac } from 'node:crypto';

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT built by hand, as an attacker would: any header, any claims, signed (HS256) with `secret` or not at all. */
export function forgeJwt(header: Record<string, unknown>, claims: Record<string, unknown>, secret?: string): string {
  const unsigned = `${encode(header)}.${encode(claims)}`;
  const signature = secret ? createHmac('sha256', secret).update(unsigned).digest('base64url') : '';
  return `${unsigned}.${signature}`;
}

/** The claims of a JWT, unverified. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}
