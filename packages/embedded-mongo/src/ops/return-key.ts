import { pathValues } from '../indexes/key-extractor';
import type { Doc } from '../types';

/** `returnKey`: each document reduced to its key in the index used (an empty document when none is). */
export function* returnKeys(pattern: Doc | undefined, docs: Iterable<Doc>): Generator<Doc> {
  const fields = Object.keys(pattern ?? {});
  const valueOf = (doc: Doc, field: string): unknown => pathValues(doc, field.split('.'))[0] ?? null;
  const keyOf = (doc: Doc): Doc => Object.fromEntries(fields.map((field) => [field, valueOf(doc, field)]));
  for (const doc of docs) yield keyOf(doc);
}
