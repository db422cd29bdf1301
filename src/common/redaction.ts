import { isPlainRecord } from './plain-object';

/** Keys of credentials and secrets: password hashes, token hashes, reset and onboarding tokens, webhook secrets. */
const SECRET_KEY = /pass(word)?|hash|secret|token|salt/i;
const REDACTED = '[redacted]';
const MAX_DEPTH = 20;

/**
 * A raw document as any raw read answers it (the document storage bean, STOMP `/request/document` and
 * `/request/repository`): every value under a secret-looking key is replaced, at any depth, whatever the collection.
 * Class instances (ObjectId, Date, Binary) are kept as they are.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (!isPlainRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redactSecrets(item, depth + 1)]),
  );
}
