import { Document, Model, MongooseQueryMiddleware, Query, Schema } from 'mongoose';
import { bumpRevisionOn } from './catalogue-revision.service';

/** Query writes (`updateOne`/`deleteOne` also run for `doc.updateOne()`/`doc.deleteOne()`, which build a query). */
const QUERY_WRITES: MongooseQueryMiddleware[] = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
];
/** Model writes; `bulkSave` runs `bulkWrite`, `create` and `insertOne` run `save`. */
const MODEL_WRITES = ['insertMany', 'bulkWrite'] as const;

/**
 * Bumps the catalogue revision after every write mongoose makes through a model of `schema`, awaited, so the
 * writer's own next read sees the new revision. A failed write bumps too: an unordered `insertMany` or a
 * `bulkWrite` may have written part of its documents before failing, and an extra bump only costs a cache miss.
 */
export function bumpsCatalogueRevision(schema: Schema): void {
  const afterSave = function (this: Document) {
    return bumpRevisionOn((this.constructor as Model<unknown>).db);
  };
  const afterQuery = function (this: Query<unknown, unknown>) {
    return bumpRevisionOn(this.model.db);
  };
  const afterModelWrite = function (this: Model<unknown>) {
    return bumpRevisionOn(this.db);
  };
  schema.post('save', afterSave);
  schema.post('save', { errorHandler: true }, afterSave);
  schema.post(QUERY_WRITES, { document: false, query: true }, afterQuery);
  schema.post(QUERY_WRITES, { document: false, query: true, errorHandler: true }, afterQuery);
  for (const write of MODEL_WRITES) {
    schema.post(write, afterModelWrite);
    schema.post(write, { errorHandler: true }, afterModelWrite);
  }
}
