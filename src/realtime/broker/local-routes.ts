import { randomBytes } from 'node:crypto';
import { HeaderList } from '../stomp/frame-encoder';
import { userTarget } from './destinations';
import { Subscription } from './message-broker';
import { OutgoingMessage } from './outgoing-message';

/** This instance's subscriptions by routing key (exact destinations), and delivery to them. */
export class LocalRoutes {
  private readonly routes = new Map<string, Set<Subscription>>();
  private readonly idPrefix = randomBytes(4).toString('hex');
  private sequence = 0;

  /** @returns whether it is the first subscription of its key */
  add(key: string, subscription: Subscription): boolean {
    let subscribers = this.routes.get(key);
    if (!subscribers) this.routes.set(key, (subscribers = new Set()));
    subscribers.add(subscription);
    return subscribers.size === 1;
  }

  /** @returns whether it was the last subscription of its key */
  remove(key: string, subscription: Subscription): boolean {
    const subscribers = this.routes.get(key);
    if (!subscribers?.delete(subscription) || subscribers.size > 0) return false;
    this.routes.delete(key);
    return true;
  }

  /** Encodes the message once and hands it to every subscriber of `key`; `destination` is what they subscribed to. */
  deliver(key: string, destination: string, body: Buffer | string, headers: HeaderList): void {
    const subscribers = this.routes.get(key);
    if (!subscribers) return;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const message = new OutgoingMessage(destination, `${this.idPrefix}-${++this.sequence}`, bytes, headers);
    for (const subscription of subscribers) subscription.subscriber.deliver(subscription, message);
  }
}

export function routingKey(subscription: Subscription): string {
  const target = userTarget(subscription.destination);
  return target === null ? subscription.destination : userKey(subscription.subscriber.userName, target);
}

/** Topic names start with `/`, so these keys never collide with them. */
export function userKey(userName: string, destination: string): string {
  return `${userName}\n${destination}`;
}
