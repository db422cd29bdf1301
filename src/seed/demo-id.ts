import { createHash } from 'node:crypto';
import { Types } from 'mongoose';

/** A stable ObjectId for a demo record, so every seed run (and every test) names the same documents. */
export function demoId(key: string): Types.ObjectId {
  return new Types.ObjectId(createHash('sha1').update(`demo:${key}`).digest('hex').slice(0, 24));
}
