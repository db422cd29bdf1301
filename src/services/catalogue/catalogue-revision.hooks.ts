import { Connection, Document, Model, MongooseQueryMiddleware, Query, Schema } from 'mongoose';
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

/** The post hooks of one kind of middleware, given how its `this` leads to the connection. */
/** Mongoose calls a hook with the document, query or model as `this`; the hooks are functions for that. */
function bumpHooks<This>(connectionOf: (self: This) => Connection) {
  function afterWrite(this: This): Promise<void> {
    return bumpRevisionOn(connectionOf(this));
  }
  /** The write's own error is the one to report, also when the bump fails too. */
  async function afterFailure(this: This): Promise<void> {
    await bumpRevisionOn(connectionOf(this)).catch(() => undefined);
  }
  return { afterWrite, afterFailure };
}

/**
 * Bumps the catalogue revision after every write mongoose makes through a model of `schema`, awaited, so the
 * writer's own next read sees the new revision; a failed bump fails the writing call. A failed write bumps too: an
 * unordered `insertMany` or a `bulkWrite` may have written part of its documents, and an extra bump only costs a
 * cache miss.
 */
export function bumpsCatalogueRevision(schema: Schema): void {
  const save = bumpHooks<Document>((doc) => (doc.constructor as Model<unknown>).db);
  schema.post('save', save.afterWrite);
  schema.post('save', { errorHandler: true }, save.afterFailure);
  const query = bumpHooks<Query<unknown, unknown>>((q) => q.model.db);
  schema.post(QUERY_WRITES, { document: false, query: true }, query.afterWrite);
  schema.post(QUERY_WRITES, { document: false, query: true, errorHandler: true }, query.afterFailure);
  const model = bumpHooks<Model<unknown>>((m) => m.db);
  for (const write of MODEL_WRITES) {
    schema.post(write, model.afterWrite);
    schema.post(write, { errorHandler: true }, model.afterFailure);
  }
}
