import { StompVersion } from '../stomp/frame';
import { HeaderList } from '../stomp/frame-encoder';
import { OutgoingMessage } from './outgoing-message';

export type AckMode = 'auto' | 'client' | 'client-individual';

/** Headers of a publication that names none. */
export const JSON_HEADERS: HeaderList = [['content-type', 'application/json']];

/** What a broker delivers to: a STOMP session. */
export interface BrokerSubscriber {
  readonly version: StompVersion;
  /** Routing name of the session's user: the principal id, or a per-session name for guests. */
  readonly userName: string;
  deliver(subscription: Subscription, message: OutgoingMessage): void;
}

/** One SUBSCRIBE of one session. */
export interface Subscription {
  readonly id: string;
  /** As the client subscribed, e.g. `/topic/jobs` or `/user/topic/default/json`. */
  readonly destination: string;
  readonly ackMode: AckMode;
  readonly subscriber: BrokerSubscriber;
  /** Encoded `MESSAGE\nsubscription:<id>\n`, see {@link subscriptionPrefix}. */
  readonly prefix: Buffer;
}

/**
 * Broker destinations (`/topic/**`, `/queue/**`, user destinations). Handlers and publishers only use
 * this interface, so a relay to an external STOMP broker can replace the in-process one.
 */
export abstract class MessageBroker {
  abstract subscribe(subscription: Subscription): void;
  abstract unsubscribe(subscription: Subscription): void;
  /** To every subscriber of `destination` (`/topic/...` or `/queue/...`). */
  abstract publish(destination: string, body: Buffer | string, headers?: HeaderList): void;
  /** To every session of `userName` subscribed to `/user` + `destination`. */
  abstract publishToUser(userName: string, destination: string, body: Buffer | string, headers?: HeaderList): void;
}
