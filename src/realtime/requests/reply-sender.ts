import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { JsonText, jsonTextOf } from '../../bean';
import { toErrorBody } from '../../common/errors/error-body';
import { JSON_HEADERS, MessageBroker } from '../broker/message-broker';
import { StompSession } from '../session/stomp-session';
import { HeaderList } from '../stomp/frame-encoder';
import { ReplyChannel } from './request-handler-registry';

export type ActionId = string | number | null;

/**
 * The error reply `{actionId, status, error, message, ...}`. A session's identity is fixed at CONNECT, so a
 * missing one is a permission failure like any other here: 401 is answered as 403 "Access denied".
 */
export function errorReply(error: unknown, path: string, requestId: string, actionId: ActionId): object {
  const body = toErrorBody(error, path, requestId);
  if (body.status === HttpStatus.UNAUTHORIZED)
    Object.assign(body, { status: HttpStatus.FORBIDDEN, error: 'Access denied', code: 'ACCESS_DENIED' });
  return { actionId, ...body };
}

/** Sends replies and refusals as JSON messages on reply topics; a `JsonText` body is sent as it is. */
@Injectable()
export class ReplySender {
  constructor(private readonly broker: MessageBroker) {}

  /** To `/user/topic/<site>/<channel>` of every session of the session's user; `extra` headers beside content-type. */
  toUser(
    session: StompSession,
    site: string,
    channel: ReplyChannel,
    body: object | JsonText,
    extra: HeaderList = [],
  ): void {
    const headers = extra.length === 0 ? JSON_HEADERS : [...JSON_HEADERS, ...extra];
    this.broker.publishToUser(session.userName, `/topic/${site}/${channel}`, jsonTextOf(body), headers);
  }

  toTopic(destination: string, body: object | JsonText): void {
    this.broker.publish(destination, jsonTextOf(body));
  }

  /** A refused frame: an error reply to the session's user, the connection stays open. */
  refuse(session: StompSession, problem: HttpException, path: string, actionId: ActionId, requestId: string): void {
    this.toUser(session, session.site, 'json', errorReply(problem, path, requestId, actionId));
  }
}
