import { createHash } from 'node:crypto';

/**
 * SHA-256 of a high-entropy secret (session id, one-time token), as stored in the database. A fast hash is enough:
 * the secrets are random 256-bit values, not guessable passwords.
 */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
