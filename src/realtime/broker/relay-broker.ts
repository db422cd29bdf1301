import { Logger, OnModuleDestroy } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { StompFrame } from '../stomp/frame';
import { HeaderList } from '../stomp/frame-encoder';
import { LocalRoutes, routingKey, userKey } from './local-routes';
import { JSON_HEADERS, MessageBroker, Subscription } from './message-broker';
import { RelayConnection } from './relay-connection';

/** Headers of a publication that come back from the upstream broker (it adds its own, which stay there). */
const RELAYED_HEADERS = ['content-type', 'retry-after'];

interface UpstreamSubscription {
  id: string;
  key: string;
  /** As this instance's clients subscribed. */
  destination: string;
}

/**
 * Broker destinations shared by several instances through an external STOMP broker (RabbitMQ Web-STOMP).
 * The instance subscribes upstream once per routing key its clients follow and fans out locally; publications
 * go upstream only and come back through those subscriptions, on every instance alike.
 */
export class RelayBroker extends MessageBroker implements OnModuleDestroy {
  private readonly logger = new Logger(RelayBroker.name);
  private readonly routes = new LocalRoutes();
  private readonly byKey = new Map<string, UpstreamSubscription>();
  private readonly byId = new Map<string, UpstreamSubscription>();
  private sequence = 0;
  private readonly connection: RelayConnection;

  constructor(url: URL) {
    super();
    this.connection = new RelayConnection(url, {
      onConnected: () => this.byKey.forEach((upstream) => this.subscribeUpstream(upstream)),
      onMessage: (frame) => this.receive(frame),
    });
  }

  subscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    if (!this.routes.add(key, subscription)) return;
    const upstream = { id: `relay-${++this.sequence}`, key, destination: subscription.destination };
    this.byKey.set(key, upstream);
    this.byId.set(upstream.id, upstream);
    this.subscribeUpstream(upstream);
  }

  unsubscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    const upstream = this.byKey.get(key);
    if (!this.routes.remove(key, subscription) || !upstream) return;
    this.byKey.delete(key);
    this.byId.delete(upstream.id);
    this.connection.send('UNSUBSCRIBE', [['id', upstream.id]]);
  }

  publish(destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.forward(destination, body, headers);
  }

  publishToUser(userName: string, destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.forward(userKey(userName, destination), body, headers);
  }

  onModuleDestroy(): void {
    this.connection.stop();
  }

  private subscribeUpstream({ id, key }: UpstreamSubscription): void {
    this.connection.send('SUBSCRIBE', [['id', id], ['destination', upstreamDestination(key)]]);
  }

  private forward(key: string, body: Buffer | string, headers: HeaderList): void {
    if (!this.connection.send('SEND', [['destination', upstreamDestination(key)], ...headers], body)) {
      this.logger.warn(`Relay not connected: a message was dropped`);
    }
  }

  private receive(frame: StompFrame): void {
    const upstream = this.byId.get(frame.headers.subscription);
    if (!upstream) return;
    const headers: HeaderList = RELAYED_HEADERS.flatMap((name) => {
      const value = frame.headers[name];
      return value === undefined ? [] : [[name, value] as const];
    });
    this.routes.deliver(upstream.key, upstream.destination, frame.body, headers);
  }
}

/**
 * RabbitMQ topic names allow no `/` and read `.` and `%` specially, so any mapping of our names that kept them
 * readable could make two of them collide (`/topic/order/1` and a public `/topic/order.1`). A hash cannot.
 */
export function upstreamDestination(key: string): string {
  return `/topic/ccb.${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}
