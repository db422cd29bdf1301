import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../common/mongo/duplicate-key';

/** A record with a fixed id, such as demo data. */
export interface FixedRecord {
  _id: Types.ObjectId;
}

/**
 * Records per round (a look-up of their ids, then one insert): a single insert of 100,000 documents keeps the
 * embedded database busy long enough for the driver's monitor to time out and drop the connection, and so did one of
 * 5,000 offers at a load of 17-23 on two cores (the 100x and 1000x seeds of 28 Nov 2026).
 */
const CHUNK = 1_000;

/**
 * Inserts the records whose `_id` is not there yet, in chunks; existing ones are left untouched (a duplicate key from
 * a concurrent run counts as already there). Each owning module offers it for its own models (demo data).
 */
export async function insertMissing<T>(model: Model<T>, records: FixedRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += CHUNK) {
    await insertMissingChunk(model, records.slice(start, start + CHUNK));
  }
}

async function insertMissingChunk<T>(model: Model<T>, records: FixedRecord[]): Promise<void> {
  const ids = records.map((record) => record._id);
  const existing = await model
    .find({ _id: { $in: ids } }, { _id: 1 })
    .lean<FixedRecord[]>()
    .exec();
  const present = new Set(existing.map((record) => String(record._id)));
  const missing = records.filter((record) => !present.has(String(record._id)));
  if (missing.length === 0) return;
  try {
    await model.insertMany(missing, { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}
