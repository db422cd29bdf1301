import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { HeaderList } from '../stomp/frame-encoder';
import { USER_PREFIX, userTarget } from './destinations';
import { MessageBroker, Subscription } from './message-broker';
import { OutgoingMessage } from './outgoing-message';

const JSON_HEADERS: HeaderList = [['content-type', 'application/json']];

/**
 * The single-instance broker: exact-match destinations, every subscriber of a destination gets every
 * message (`/queue/**` included, as in Spring's simple broker).
 */
@Injectable()
export class InMemoryBroker extends MessageBroker {
  private readonly routes = new Map<string, Set<Subscription>>();
  private readonly idPrefix = randomBytes(4).toString('hex');
  private sequence = 0;

  subscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    let subscribers = this.routes.get(key);
    if (!subscribers) this.routes.set(key, (subscribers = new Set()));
    subscribers.add(subscription);
  }

  unsubscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    const subscribers = this.routes.get(key);
    if (subscribers?.delete(subscription) && subscribers.size === 0) this.routes.delete(key);
  }

  publish(destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.deliver(destination, destination, body, headers);
  }

  publishToUser(userName: string, destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.deliver(userKey(userName, destination), USER_PREFIX + destination, body, headers);
  }

  private deliver(key: string, destination: string, body: Buffer | string, headers: HeaderList): void {
    const subscribers = this.routes.get(key);
    if (!subscribers) return;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const message = new OutgoingMessage(destination, `${this.idPrefix}-${++this.sequence}`, bytes, headers);
    for (const subscription of subscribers) subscription.subscriber.deliver(subscription, message);
  }
}

function routingKey(subscription: Subscription): string {
  const target = userTarget(subscription.destination);
  return target === null ? subscription.destination : userKey(subscription.subscriber.userName, target);
}

/** Topic names start with `/`, so these keys never collide with them. */
function userKey(userName: string, destination: string): string {
  return `${userName}\n${destination}`;
}
