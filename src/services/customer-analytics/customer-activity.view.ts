import { Types } from 'mongoose';
import { CustomerActivity, CustomerActivityType } from './customer-activity.schema';

/** A customer activity as the API and the `/topic/customer/{id}` events return it. */
export interface CustomerActivityView {
  id: string;
  customerId: string;
  type: CustomerActivityType;
  data: Record<string, unknown>;
  at: Date;
}

export function toActivityView(activity: CustomerActivity & { _id: Types.ObjectId }): CustomerActivityView {
  const { _id, customerId, type, data, at } = activity;
  return { id: _id.toString(), customerId, type, data: data ?? {}, at };
}
