import { Types } from 'mongoose';
import { CustomerActivity, CustomerActivityType } from './customer-activity.schema';

/** A customer activity as stored (lean). */
export type StoredActivity = CustomerActivity & { _id: Types.ObjectId };

/** A customer activity as the API and the `/topic/customer/{id}` events return it. */
export interface CustomerActivityView {
  id: string;
  customerId: string;
  type: CustomerActivityType;
  data: Record<string, unknown>;
  at: Date;
}

export function toActivityView(activity: StoredActivity): CustomerActivityView {
  const { _id, customerId, type, data, at } = activity;
  return { id: _id.toString(), customerId, type, data: data ?? {}, at };
}
