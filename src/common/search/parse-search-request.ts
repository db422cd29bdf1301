import { BadRequestException } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { validationFailed } from '../errors/validation-errors';
import { HOSTILE_KEYS } from '../plain-object';
import { SearchRequestDto } from './search-request.dto';

/** Deeper requests are refused before anything walks them recursively (a deep enough one overflows the stack). */
const MAX_DEPTH = 32;

/**
 * Reads a search request given as JSON text (the beans' `requestJson: String`) or as an object, and validates it.
 * Refuses (400) malformed JSON, wrong field types, and any key in `query` that starts with `$` (query operators)
 * or is a prototype key, at any depth, and nesting deeper than 32 levels.
 *
 * @example
 * const request = parseSearchRequest('{"searchTerm":"rose","limit":10}');
 */
export function parseSearchRequest(input: unknown): SearchRequestDto {
  const raw = typeof input === 'string' ? parseJson(input) : input;
  if (raw === null || raw === undefined) return new SearchRequestDto();
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new BadRequestException('A search request must be a JSON object');
  }
  assertNoOperators(raw, 'the search request');
  const request = plainToInstance(SearchRequestDto, raw);
  const errors = validateSync(request, { forbidUnknownValues: false });
  if (errors.length > 0) throw validationFailed(errors, 'searchRequest');
  return request;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new BadRequestException('The search request is not valid JSON');
  }
}

function assertNoOperators(value: unknown, path: string, depth = 0): void {
  if (depth > MAX_DEPTH) throw new BadRequestException(`${path} is nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertNoOperators(item, `${path}[${index}]`, depth + 1));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('$') || HOSTILE_KEYS.has(key)) {
      throw new BadRequestException(`Operator or reserved key "${key}" is not allowed in ${path}`);
    }
    assertNoOperators(inner, `${path}.${key}`, depth + 1);
  }
}
