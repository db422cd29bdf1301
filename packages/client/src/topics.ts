import type { CustomerActivityView, JobView, OrderView } from './generated/beans';
import type { ErrorBody } from './errors';

/** A live event as the server publishes it (DESIGN §5). */
export interface LiveEvent<E extends string, D> {
  event: E;
  id: string;
  data: D;
  /** ISO instant of publication. */
  timestamp: string;
}

/** `/topic/jobs` and `/topic/job/{id}` (ADMIN). */
export type JobEvent = LiveEvent<'job.updated', JobView> | LiveEvent<'job.removed', null>;
/** `/topic/order/{id}` (the order's buyer, seller or an ADMIN). */
export type OrderEvent = LiveEvent<'order.status', OrderView> | LiveEvent<'order.removed', null>;
/** `/topic/customer/{id}` (that customer or an ADMIN). */
export type CustomerEvent = LiveEvent<'customer.activity', CustomerActivityView>;

/** What `/request/**` answers on `/user/topic/{site}/json` (or the GLOBAL and SHARED topics). */
export type Reply =
  | { actionId: string | number | null; status: number; payload: unknown }
  | ({ actionId: string | number | null } & ErrorBody);

/** The payload type of a destination, from the documented topics (src/docs/asyncapi.ts). */
export type PayloadOf<D extends string> = D extends '/topic/jobs' | `/topic/job/${string}`
  ? JobEvent
  : D extends `/topic/order/${string}`
    ? OrderEvent
    : D extends `/topic/customer/${string}`
      ? CustomerEvent
      : D extends `/user/topic/${string}`
        ? Reply
        : unknown;

/** Destinations clients may subscribe to; other `/topic/` and `/queue/` destinations are typed `unknown`. */
export type Destination =
  | '/topic/jobs'
  | `/topic/job/${string}`
  | `/topic/order/${string}`
  | `/topic/customer/${string}`
  | `/user/topic/${string}`
  | `/topic/${string}`
  | `/queue/${string}`;
