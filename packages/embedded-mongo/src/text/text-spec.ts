import { MongoError } from '../errors';
import type { IndexSpec } from '../indexes/index-spec';
import { isDoc, type Doc } from '../types';
import { findLanguage } from './analyzer';

export const WILDCARD = '$**';
/** MongoDB refuses a weight of this much or more (MAX_WEIGHT / 10000). */
const MAX_WORD_WEIGHT = 100000;

/** A key pattern of a text index, as given (`{title: 'text'}`) or as stored (`{_fts: 'text', _ftsx: 1}`). */
export function isTextKey(key: Doc): boolean {
  return Object.values(key).some((value) => value === 'text');
}

function cannotCreate(message: string): MongoError {
  return new MongoError('CannotCreateIndex', message);
}

/** The stored key pattern: prefix fields, `_fts: 'text', _ftsx: 1`, suffix fields; and the text fields. */
function storedKey(key: Doc): { key: Doc; textFields: string[] } {
  const stored: Doc = {};
  const textFields: string[] = [];
  let state: 'before' | 'text' | 'after' = 'before';
  for (const [field, value] of Object.entries(key)) {
    if (field === '_fts' || field === '_ftsx') {
      stored[field] = value;
      state = 'after';
    } else if (value === 'text') {
      if (state === 'after') throw cannotCreate("'text' fields in index must all be adjacent");
      if (state === 'before') Object.assign(stored, { _fts: 'text', _ftsx: 1 });
      state = 'text';
      textFields.push(field);
    } else {
      if (value !== 1 && value !== -1) throw cannotCreate('expected value 1 or -1 for non-text key in compound index');
      if (state === 'text') state = 'after';
      stored[field] = value;
    }
  }
  return { key: stored, textFields };
}

function weightsOf(textFields: string[], given: unknown): Doc {
  const weights: Record<string, number> = Object.fromEntries(textFields.map((field) => [field, 1]));
  if (given !== undefined && !isDoc(given)) throw cannotCreate("text index option 'weights' must be an object");
  for (const [field, weight] of Object.entries(given ?? {})) {
    if (typeof weight !== 'number') throw cannotCreate('weight for text index needs numeric type');
    if (!(weight > 0 && weight < MAX_WORD_WEIGHT)) throw cannotCreate('score for word too high');
    weights[field] = weight;
  }
  return Object.fromEntries(Object.entries(weights).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function checkLanguageOverride(field: unknown): string {
  if (typeof field !== 'string' || field === '' || field.startsWith('$') || field.includes('.')) {
    throw cannotCreate(`language_override is invalid: ${JSON.stringify(field)}`);
  }
  return field;
}

/** A text index spec as MongoDB stores and lists it (text index version 3). */
export function normalizeTextSpec(spec: IndexSpec): IndexSpec {
  const { key, textFields } = storedKey(spec.key);
  const language = spec.default_language ?? 'english';
  if (!findLanguage(language))
    throw new MongoError('BadValue', `unsupported language: "${String(language)}" for text index version 3`);
  const {
    v,
    key: _key,
    name,
    weights,
    default_language: _l,
    language_override: override,
    textIndexVersion: _t,
    ...options
  } = spec;
  return {
    v,
    key,
    name,
    ...options,
    weights: weightsOf(textFields, weights),
    default_language: language,
    language_override: checkLanguageOverride(override ?? 'language'),
    textIndexVersion: 3,
  };
}
