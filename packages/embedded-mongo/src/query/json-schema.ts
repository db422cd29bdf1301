import Ajv from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types';
import type { JsonSchemaValidator } from 'mingo/types';
import { numberTypesOf } from '../bson/number-types';
import { bsonTypeOf, matchesType } from './bson-type';

/**
 * `$jsonSchema` for mingo (which needs a validator plugged in): ajv with MongoDB's `bsonType`
 * keyword, judged on BSON type names (and the remembered int64/double types of the field).
 */
const ajv = new Ajv({ strict: false, allErrors: false });
ajv.addKeyword({
  keyword: 'bsonType',
  schemaType: ['string', 'array'],
  validate: (wanted: string | string[], data: unknown, _schema?: unknown, context?: DataValidationCxt) => {
    const remembered = context ? numberTypesOf(context.parentData)?.[String(context.parentDataProperty)] : undefined;
    const type = bsonTypeOf(data, remembered);
    return (Array.isArray(wanted) ? wanted : [wanted]).some((name) => matchesType(type, name));
  },
});

const compiled = new Map<string, (doc: unknown) => boolean>();

export const jsonSchemaValidator: JsonSchemaValidator = (schema) => {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    const check = ajv.compile(schema);
    validate = (doc) => check(doc);
    compiled.set(key, validate);
  }
  return validate;
};
