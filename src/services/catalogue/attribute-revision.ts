import { Connection, mongo, Types } from 'mongoose';
import { facetKey } from './storefront-entry';
import { FACET_COLLECTION } from './storefront-indexer';

/**
 * The attributes' revision: a document among the filter counters (`storefront_facets`) whose `token` every write of
 * an attribute renews (after the write, through the attribute hooks, raw writes included, and after a rebuild). The
 * filters read it with the counters they read anyway, so an instance answers from the attributes it keeps in memory
 * while the token is the one it read them at, and reads them again on the call after any attribute write, on every
 * instance. Its `count` stays 0, so the rebuild's recount, which sets every counter's count, leaves it as it is.
 */
export const ATTRIBUTES_REVISION_FACET = 'revision';
export const ATTRIBUTES_REVISION = facetKey(ATTRIBUTES_REVISION_FACET, 'attributes');

export interface AttributesRevision {
  _id: string;
  token: Types.ObjectId;
}

/** A new token (never one seen before: a counter reset by a rebuild could come back to a value an instance holds). */
export async function renewAttributesRevision(connection: Connection): Promise<void> {
  const revision = { facet: ATTRIBUTES_REVISION_FACET, value: 'attributes', count: 0, token: new Types.ObjectId() };
  await connection
    .collection(FACET_COLLECTION)
    .updateOne({ _id: ATTRIBUTES_REVISION } as mongo.BSON.Document, { $set: revision }, { upsert: true });
}
