import { BadRequestException } from '@nestjs/common';
import { mongo } from 'mongoose';
import { HOSTILE_KEYS } from '../../common/plain-object';

/** Operators that run JavaScript on the database server. */
const SERVER_JAVASCRIPT = new Set(['$where', '$function', '$accumulator']);
const MAX_DEPTH = 32;

/**
 * Checks a filter, update or document from a client and turns its extended JSON (`{"$oid": ...}`,
 * `{"$date": ...}`) into BSON values. `$expr` is allowed: its JavaScript forms are the operators refused here.
 * @throws BadRequestException naming the field
 */
export function clientQuery<T>(value: unknown, field: string): T {
  inspect(value, field, 0);
  return mongo.BSON.EJSON.deserialize(value as mongo.BSON.Document, { relaxed: true }) as T;
}

function inspect(value: unknown, path: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new BadRequestException(`${path} is nested too deeply`);
  if (Array.isArray(value)) return value.forEach((item, i) => inspect(item, `${path}[${i}]`, depth + 1));
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (SERVER_JAVASCRIPT.has(key))
      throw new BadRequestException(`${path}: ${key} (server-side JavaScript) is not allowed`);
    if (HOSTILE_KEYS.has(key)) throw new BadRequestException(`${path}: key ${key} is not allowed`);
    inspect(child, `${path}.${key}`, depth + 1);
  }
}

/** An integer field of a request message, with a default and bounds. */
export function intField(
  message: Record<string, unknown>,
  name: string,
  fallback: number,
  [min, max]: [number, number],
): number {
  const value = message[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new BadRequestException(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** Database errors caused by the request (bad ids, failed validation, refused operators) are 400s. */
export function asClientError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const clientErrors = ['CastError', 'ValidationError', 'StrictModeError', 'MongoServerError', 'BSONError'];
  return clientErrors.includes(error.name) ? new BadRequestException(error.message) : error;
}
