import { ForbiddenException, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config';
import { TopicAuthorizer } from '../auth/topic-authorizer';
import { isBrokerDestination, isValidDestination, REQUEST_PREFIX } from '../broker/destinations';
import { MessageBroker } from '../broker/message-broker';
import { ReplySender } from '../requests/reply-sender';
import { RequestDispatcher } from '../requests/request-dispatcher';
import { HeaderList } from '../stomp/frame-encoder';
import { StompFrame } from '../stomp/frame';
import { StompSession } from './stomp-session';

/**
 * SEND: `/request/**` goes to the application; broker destinations are refused (an error reply, no RECEIPT),
 * unless configured open for clients (STOMP_CLIENT_SEND_PREFIXES, used by the benchmarks).
 */
@Injectable()
export class SendHandler {
  constructor(
    private readonly dispatcher: RequestDispatcher,
    private readonly broker: MessageBroker,
    private readonly authorizer: TopicAuthorizer,
    private readonly replies: ReplySender,
    private readonly config: AppConfig,
  ) {}

  send(session: StompSession, frame: StompFrame): void {
    const { destination } = frame.headers;
    if (destination === undefined) return session.fail('PROTOCOL_ERROR', 'SEND needs a destination header', '', frame);
    if (destination.startsWith(REQUEST_PREFIX)) {
      this.dispatcher.dispatch(session, frame);
    } else if (this.openToClients(destination)) {
      this.broker.publish(destination, frame.body, contentType(frame));
    } else {
      const refusal = new ForbiddenException('Clients may only SEND to /request/**');
      return this.replies.refuse(session, refusal, destination, frame.headers.receipt ?? null, randomUUID());
    }
    session.acknowledge(frame);
  }

  private openToClients(destination: string): boolean {
    return (
      this.config.stomp.clientSendPrefixes.some((prefix) => destination.startsWith(prefix)) &&
      isValidDestination(destination) &&
      isBrokerDestination(destination) &&
      !this.authorizer.isProtected(destination)
    );
  }
}

function contentType(frame: StompFrame): HeaderList {
  const type = frame.headers['content-type'];
  return type === undefined ? [] : [['content-type', type]];
}
