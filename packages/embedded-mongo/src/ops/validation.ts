import { Query } from 'mingo/query';
import { MongoError } from '../errors';
import { effectiveFilter, filterOptions } from '../query/mingo-options';
import type { Collection } from '../storage/collection';
import type { Doc } from '../types';

/** Per-write options that bypass collection rules. */
export interface WriteOptions {
  bypassDocumentValidation?: boolean;
}

function passes(validator: Doc, doc: Doc): boolean {
  return new Query(effectiveFilter(validator, {}), filterOptions({}, validator)).test(doc);
}

/**
 * Enforces the collection validator (`create`/`collMod` option) with MongoDB's levels: `moderate`
 * lets updates of already-invalid documents through; `warn` never rejects.
 */
export function validateDocument(
  collection: Collection,
  doc: Doc,
  previous: Doc | undefined,
  options: WriteOptions,
): void {
  const { validator, validationLevel, validationAction } = collection.options as {
    validator?: Doc;
    validationLevel?: string;
    validationAction?: string;
  };
  if (!validator || options.bypassDocumentValidation || validationLevel === 'off' || validationAction === 'warn')
    return;
  if (previous && validationLevel === 'moderate' && !passes(validator, previous)) return;
  if (passes(validator, doc)) return;
  throw new MongoError('DocumentValidationFailure', 'Document failed validation', {
    errInfo: { failingDocumentId: doc._id, details: { operatorName: '$and', clausesNotSatisfied: [] } },
  });
}
