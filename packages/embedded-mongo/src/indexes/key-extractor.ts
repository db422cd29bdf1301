import type { Doc } from '../types';

/** Values of a dotted path in a document, descending into arrays as a multikey index does. */
export function pathValues(doc: unknown, path: string[]): unknown[] {
  if (path.length === 0) {
    if (Array.isArray(doc)) return doc.length ? doc : [undefined];
    return [doc];
  }
  if (Array.isArray(doc)) {
    const index = Number(path[0]);
    if (Number.isInteger(index) && index >= 0) return pathValues(doc[index], path.slice(1));
    return doc.flatMap((element) => pathValues(element, path));
  }
  if (typeof doc !== 'object' || doc === null) return [undefined];
  return pathValues((doc as Doc)[path[0]], path.slice(1));
}

/** All index keys of a document for the given key fields (cartesian product over multikey fields). */
export function extractKeys(doc: Doc, fields: string[]): unknown[][] {
  let keys: unknown[][] = [[]];
  for (const field of fields) {
    const values = dedupe(pathValues(doc, field.split('.')));
    keys = keys.flatMap((prefix) => values.map((value) => [...prefix, value]));
  }
  return keys;
}

function dedupe(values: unknown[]): unknown[] {
  return values.length < 2 ? values : [...new Set(values)];
}

/** True when the document has none of the indexed fields (sparse indexes skip it). */
export function hasNoIndexedField(doc: Doc, fields: string[]): boolean {
  return fields.every((field) => pathValues(doc, field.split('.')).every((value) => value === undefined));
}

/** True when the path goes through or ends on an array in the document (the index is then multikey). */
export function touchesArray(doc: unknown, field: string): boolean {
  let values: unknown[] = [doc];
  for (const part of field.split('.')) {
    if (values.some(Array.isArray)) return true;
    values = values.map((value) => (typeof value === 'object' && value !== null ? (value as Doc)[part] : undefined));
  }
  return values.some(Array.isArray);
}
