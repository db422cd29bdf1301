import { Query } from 'mingo/query';
import { effectiveFilter, mingoOptions } from '../query/mingo-options';
import type { Doc } from '../types';
import type { IndexSpec } from './index-spec';

/** Whether a document belongs in an index: always, or when it matches the index's `partialFilterExpression`. */
export function partialFilter(spec: IndexSpec): (doc: Doc) => boolean {
  if (!spec.partialFilterExpression) return () => true;
  const query = new Query(effectiveFilter(spec.partialFilterExpression, {}), mingoOptions());
  return (doc) => query.test(doc);
}
