import { BadRequestException, ForbiddenException, HttpException, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config';
import { TopicAuthorizer } from '../auth/topic-authorizer';
import { isBrokerDestination, isValidDestination, userTarget } from '../broker/destinations';
import { AckMode, MessageBroker, Subscription } from '../broker/message-broker';
import { subscriptionPrefix } from '../broker/outgoing-message';
import { ReplySender } from '../requests/reply-sender';
import { StompFrame } from '../stomp/frame';
import { StompSession } from './stomp-session';

const ACK_MODES: readonly string[] = ['auto', 'client', 'client-individual'];

/**
 * SUBSCRIBE and UNSUBSCRIBE. A refused subscription is answered with an error reply (DESIGN §5: refusals never
 * close the connection) and gets no RECEIPT, which would claim it took effect.
 */
@Injectable()
export class SubscriptionHandler {
  private readonly logger = new Logger(SubscriptionHandler.name);

  constructor(
    private readonly broker: MessageBroker,
    private readonly authorizer: TopicAuthorizer,
    private readonly replies: ReplySender,
    private readonly config: AppConfig,
  ) {}

  subscribe(session: StompSession, frame: StompFrame): void | Promise<void> {
    const { destination, ack = 'auto' } = frame.headers;
    const id = frame.headers.id ?? (session.version === '1.0' ? destination : undefined);
    if (destination === undefined || id === undefined)
      return session.fail('PROTOCOL_ERROR', 'SUBSCRIBE needs destination and id headers', '', frame);
    if (!ACK_MODES.includes(ack)) return session.fail('PROTOCOL_ERROR', `Unknown ack mode ${ack}`, '', frame);
    const ackMode = ack as AckMode;
    if (session.subscriptions.has(id))
      return session.fail('PROTOCOL_ERROR', `Subscription id ${id} is already in use`, '', frame);
    const problem = this.problem(session, destination);
    if (problem) return this.refuse(session, frame, problem);
    const allowed = userTarget(destination) !== null || this.authorizer.mayFollow(session.principal, destination);
    if (typeof allowed === 'boolean') return this.decide(session, frame, id, ackMode, allowed);
    return allowed.then(
      (ok) => this.decide(session, frame, id, ackMode, ok),
      (error: unknown) => {
        this.logger.error(`Authorizing ${destination} failed`, error instanceof Error ? error.stack : error);
        this.decide(session, frame, id, ackMode, false);
      },
    );
  }

  unsubscribe(session: StompSession, frame: StompFrame): void {
    const id = frame.headers.id ?? (session.version === '1.0' ? frame.headers.destination : undefined);
    if (id === undefined) return session.fail('PROTOCOL_ERROR', 'UNSUBSCRIBE needs an id header', '', frame);
    const subscription = session.subscriptions.get(id);
    if (subscription) {
      session.subscriptions.delete(id);
      this.broker.unsubscribe(subscription);
    }
    session.acknowledge(frame);
  }

  removeAll(session: StompSession): void {
    for (const subscription of session.subscriptions.values()) this.broker.unsubscribe(subscription);
    session.subscriptions.clear();
  }

  private problem(session: StompSession, destination: string): HttpException | undefined {
    if (!isValidDestination(destination) || !(isBrokerDestination(destination) || userTarget(destination) !== null)) {
      return new BadRequestException('Only /topic/**, /queue/** and /user/topic|queue/** can be subscribed to');
    }
    if (session.subscriptions.size >= this.config.stomp.maxSubscriptionsPerSession) {
      return new BadRequestException(
        `At most ${this.config.stomp.maxSubscriptionsPerSession} subscriptions per connection`,
      );
    }
    return undefined;
  }

  private decide(session: StompSession, frame: StompFrame, id: string, ackMode: AckMode, allowed: boolean): void {
    if (!session.isOpen) return;
    if (!allowed)
      return this.refuse(
        session,
        frame,
        new ForbiddenException(`Subscription to ${frame.headers.destination} refused`),
      );
    const subscription: Subscription = {
      id,
      destination: frame.headers.destination,
      ackMode,
      subscriber: session,
      prefix: subscriptionPrefix(id, session.version),
    };
    session.subscriptions.set(id, subscription);
    this.broker.subscribe(subscription);
    session.acknowledge(frame);
  }

  private refuse(session: StompSession, frame: StompFrame, problem: HttpException): void {
    this.replies.refuse(session, problem, frame.headers.destination, frame.headers.receipt ?? null, randomUUID());
  }
}
