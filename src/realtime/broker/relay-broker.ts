import { Logger, OnModuleDestroy } from '@nestjs/common';
import type { StompHeaders } from '@stomp/stompjs';
import { createHash } from 'node:crypto';
import { HeaderList } from '../stomp/frame-encoder';
import { LocalRoutes, routingKey, userKey } from './local-routes';
import { JSON_HEADERS, MessageBroker, Subscription } from './message-broker';
import { RelayConnection } from './relay-connection';

/** Headers of a publication that come back from the upstream broker (it adds its own, which stay there). */
const RELAYED_HEADERS = ['content-type', 'retry-after'];

/** What the health endpoint reports of the relay. */
export interface RelayStatus {
  connected: boolean;
  /** Publications waiting for the connection to come back. */
  buffered: number;
  /** Publications lost since start because the buffer was full. */
  dropped: number;
}

interface PendingSend {
  destination: string;
  headers: StompHeaders;
  body: Buffer | string;
}

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
 * While the connection is down, publications wait in a bounded buffer and are sent in order once it is back
 * (after the subscriptions are renewed); past the bound they are dropped, logged and counted in the health report.
 */
export class RelayBroker extends MessageBroker implements OnModuleDestroy {
  private readonly logger = new Logger(RelayBroker.name);
  private readonly routes = new LocalRoutes();
  private readonly byKey = new Map<string, UpstreamSubscription>();
  private sequence = 0;
  private readonly connection: RelayConnection;
  private readonly pending: PendingSend[] = [];
  private dropped = 0;

  constructor(
    url: URL,
    private readonly namespace: string,
    private readonly bufferSize: number,
  ) {
    super();
    this.connection = new RelayConnection(url, () => this.renew());
  }

  status(): RelayStatus {
    return { connected: this.connection.isConnected(), buffered: this.pending.length, dropped: this.dropped };
  }

  subscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    if (!this.routes.add(key, subscription)) return;
    const upstream = { id: `relay-${++this.sequence}`, key, destination: subscription.destination };
    this.byKey.set(key, upstream);
    this.subscribeUpstream(upstream);
  }

  unsubscribe(subscription: Subscription): void {
    const key = routingKey(subscription);
    const upstream = this.byKey.get(key);
    if (!this.routes.remove(key, subscription) || !upstream) return;
    this.byKey.delete(key);
    this.connection.unsubscribe(upstream.id);
  }

  publish(destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.forward(destination, body, headers);
  }

  publishToUser(userName: string, destination: string, body: Buffer | string, headers = JSON_HEADERS): void {
    this.forward(userKey(userName, destination), body, headers);
  }

  onModuleDestroy(): Promise<void> {
    return this.connection.stop();
  }

  private renew(): void {
    this.byKey.forEach((upstream) => this.subscribeUpstream(upstream));
    const flushed = this.pending.length;
    for (const { destination, headers, body } of this.pending.splice(0)) {
      this.connection.publish(destination, headers, body);
    }
    if (flushed > 0) this.logger.log(`Relay back: sent ${flushed} publication(s) kept while it was down`);
  }

  private subscribeUpstream(upstream: UpstreamSubscription): void {
    const destination = upstreamDestination(upstream.key, this.namespace);
    this.connection.subscribe(upstream.id, destination, (body, headers) => this.receive(upstream, body, headers));
  }

  private forward(key: string, body: Buffer | string, headerList: HeaderList): void {
    const destination = upstreamDestination(key, this.namespace);
    const headers = Object.fromEntries(headerList);
    if (this.connection.publish(destination, headers, body)) return;
    if (this.pending.length < this.bufferSize) return void this.pending.push({ destination, headers, body });
    this.dropped++;
    this.logger.error(`Relay down, buffer (${this.bufferSize}) full: a publication dropped (${this.dropped} so far)`);
  }

  private receive(upstream: UpstreamSubscription, body: Buffer, upstreamHeaders: StompHeaders): void {
    const headers: HeaderList = RELAYED_HEADERS.flatMap((name) => {
      const value = upstreamHeaders[name];
      return value === undefined ? [] : [[name, value] as const];
    });
    this.routes.deliver(upstream.key, upstream.destination, body, headers);
  }
}

/**
 * RabbitMQ topic names allow no `/` and read `.` and `%` specially, so any mapping of our names that kept them
 * readable could make two of them collide (`/topic/order/1` and a public `/topic/order.1`). A hash cannot.
 */
export function upstreamDestination(key: string, namespace = 'ccb'): string {
  return `/topic/${namespace}.${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}
