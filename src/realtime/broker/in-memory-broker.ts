import { Injectable } from '@nestjs/common';
import { USER_PREFIX } from './destinations';
import { LocalRoutes, routingKey, userKey } from './local-routes';
import { JSON_HEADERS, MessageBroker, Subscription } from './message-broker';

/**
 * The single-instance broker: exact-match destinations, every subscriber of a destination gets every
 * message (`/queue/**` included, as in Spring's simple broker).
 */
@Injectable()
export class InMemoryBroker extends MessageBroker {
  private readonly routes = new LocalRoutes();

  subscribe(subscription: Subscription): void {
    this.routes.add(routingKey(subscription), subscription);
  }

  unsubscribe(subscription: Subscription): void {
    this.routes.remove(routingKey(subscription), subscription);
  }

  publish(destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.routes.deliver(destination, destination, body, headers);
  }

  publishToUser(userName: string, destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.routes.deliver(userKey(userName, destination), USER_PREFIX + destination, body, headers);
  }
}
