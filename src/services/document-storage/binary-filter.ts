import { BadRequestException } from '@nestjs/common';
import { objectIdOrText } from '../../common/mongo/object-id';

const FIELD = /^(_id|filename|contentType|metadata\.[A-Za-z0-9_]+)$/;

/**
 * Reads the JSON filter of `removeBinary(db, bucket, json)`: equality on `_id`, `filename`, `contentType` or
 * `metadata.<field>` with scalar values only, so no query operator can widen what gets deleted.
 */
export function parseBinaryFilter(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new BadRequestException('json is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || Object.keys(parsed).length === 0) {
    throw new BadRequestException('json must be a non-empty object such as {"filename": "logo.png"}');
  }
  const filter: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(parsed)) {
    if (!FIELD.test(field))
      throw new BadRequestException(
        `json: field "${field}" cannot be used; allowed: _id, filename, contentType, metadata.<field>`,
      );
    if (value !== null && typeof value === 'object')
      throw new BadRequestException(`json: "${field}" must be a plain value`);
    filter[field] = field === '_id' && typeof value === 'string' ? objectIdOrText(value) : value;
  }
  return filter;
}
