import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';

/** MongoDB's own databases: never reachable through the document storage bean. */
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

/** Refuses every database but the application's own: system databases are a 403, any other name a 404. */
export function assertOwnDatabase(dbName: string, ownName: string): void {
  if (SYSTEM_DATABASES.has(dbName.toLowerCase())) throw new ForbiddenException(`Database "${dbName}" is not accessible`);
  if (dbName !== ownName) throw new NotFoundException(`Database "${dbName}" not found`);
}

/** Refuses malformed names (400) and MongoDB's `system.*` collections (403). */
export function assertCollectionName(name: string, what = 'collectionName'): void {
  if (!COLLECTION_NAME.test(name)) throw new BadRequestException(`${what} is not a valid collection name`);
  if (name.startsWith('system.')) throw new ForbiddenException(`Collection "${name}" is not accessible`);
}

const SECRET_KEY = /pass(word)?|hash|secret|token|salt/i;
const REDACTED = '[redacted]';

/** Documents as shown to administrators: credentials and secrets are never sent, whatever collection they are in. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (!isPlainRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redact(item, depth + 1)]));
}

function isPlainRecord(value: object): value is Record<string, unknown> {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
