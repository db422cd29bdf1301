import { Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Schema = Record<string, unknown>;

/** JSON Schema keywords of the class-validator constraints DTOs use; others are left out of the docs. */
const KEYWORDS: Record<string, (constraints: unknown[]) => Schema> = {
  isString: () => ({ type: 'string' }),
  isNotEmpty: () => ({ minLength: 1 }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isBoolean: () => ({ type: 'boolean' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  isISO8601: () => ({ type: 'string', format: 'date-time' }),
  isDateString: () => ({ type: 'string', format: 'date-time' }),
  isIn: ([values]) => ({ enum: values }),
  isEnum: ([entity]) => ({ enum: Object.values(entity as object) }),
  min: ([value]) => ({ minimum: value }),
  max: ([value]) => ({ maximum: value }),
  minLength: ([value]) => ({ minLength: value }),
  maxLength: ([value]) => ({ maxLength: value }),
  arrayMaxSize: ([value]) => ({ maxItems: value }),
};

/**
 * The JSON Schema of a `MapOf(Dto)` argument, read from its class-validator metadata; property initialisers are
 * the defaults, and a property is required unless it is `@IsOptional()` or has a default.
 */
export function dtoSchema(dto: Type<object>): Schema {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const defaults = new dto() as Record<string, unknown>;
  const properties: Record<string, Schema> = {};
  const optional = new Set<string>();
  for (const meta of metadata) {
    const property = (properties[meta.propertyName] ??= {});
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) optional.add(meta.propertyName);
    Object.assign(property, keywordsOf(meta));
  }
  for (const [name, property] of Object.entries(properties)) {
    if (defaults[name] !== undefined) property.default = defaults[name];
  }
  const required = Object.keys(properties).filter((name) => !optional.has(name) && defaults[name] === undefined);
  return { type: 'object', title: dto.name, properties, ...(required.length > 0 ? { required } : {}) };
}

function keywordsOf(meta: ValidationMetadata): Schema {
  if (meta.type === ValidationTypes.NESTED_VALIDATION) return { type: meta.each ? 'array' : 'object' };
  const keywords = meta.name ? KEYWORDS[meta.name] : undefined;
  if (!keywords) return {};
  return meta.each ? { type: 'array', items: keywords(meta.constraints ?? []) } : keywords(meta.constraints ?? []);
}
