import { BadRequestException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JsonText, toJsonResult } from '../../bean';
import { retryAfterSeconds } from '../../common/errors/too-many-requests';
import { RequestContext } from '../../common/request-context';
import { ContextHeaders } from '../../sites/context-headers';
import { TopicAuthorizer } from '../auth/topic-authorizer';
import { isSafePath, TOPIC_PREFIX } from '../broker/destinations';
import { header } from '../session/negotiation';
import { StompSession } from '../session/stomp-session';
import { StompFrame } from '../stomp/frame';
import { HeaderList } from '../stomp/frame-encoder';
import { ActionId, errorReply, ReplySender } from './reply-sender';
import { ReplyChannel, RequestHandlerRegistry, StompRequestHandler } from './request-handler-registry';

type Route = (body: object | JsonText) => void;

interface Request {
  session: StompSession;
  destination: string;
  requestId: string;
  channel: ReplyChannel;
  site: string;
  actionId: ActionId;
}

/**
 * A SEND to `/request/**`: parses the BasicRequestMessage, runs the destination's handler inside a
 * `RequestContext` and routes the reply by `eventType`. Error replies go to the sender only, whatever the
 * `eventType`: they describe the sender's call.
 */
@Injectable()
export class RequestDispatcher {
  private readonly logger = new Logger(RequestDispatcher.name);

  constructor(
    private readonly registry: RequestHandlerRegistry,
    private readonly replies: ReplySender,
    private readonly authorizer: TopicAuthorizer,
    private readonly contextHeaders: ContextHeaders,
  ) {}

  dispatch(session: StompSession, frame: StompFrame): void {
    const destination = frame.headers.destination;
    const handler = this.registry.find(destination);
    const request: Request = {
      session,
      destination,
      requestId: randomUUID(),
      channel: handler?.channel ?? 'json',
      site: session.site,
      actionId: null,
    };
    this.process(request, frame, handler).catch((error: unknown) => this.fail(request, error));
  }

  private async process(request: Request, frame: StompFrame, handler: StompRequestHandler | undefined): Promise<void> {
    const { session, requestId } = request;
    const message = parseMessage(frame.body);
    request.actionId = actionIdOf(message);
    const lang = header(frame.headers, 'Lang-Context') ?? session.lang;
    const site = header(frame.headers, 'Site-Context') ?? session.site;
    // Replies are routed by site, so every request's context is checked here (a refusal goes to the session's site).
    const siteLookUp = this.contextHeaders.check({ lang, site });
    if (siteLookUp) await siteLookUp;
    request.site = site;
    const route = this.route(request, message);
    if (!handler) throw new NotFoundException(`Unknown destination ${request.destination}`);
    const context = { requestId, lang, site, principal: session.principal };
    const payload = await RequestContext.run(context, () =>
      handler.handle(message, { remoteAddress: session.remoteAddress }),
    );
    route(successReply(request.actionId, toJsonResult(payload)));
  }

  private route(request: Request, message: Record<string, unknown>): Route {
    const { session, site, channel } = request;
    const eventType = message.eventType ?? 'USER';
    if (eventType === 'USER') return (body) => this.replies.toUser(session, site, channel, body);
    if (eventType === 'GLOBAL') return (body) => this.replies.toTopic(`${TOPIC_PREFIX}${site}/${channel}`, body);
    if (eventType !== 'SHARED') throw new BadRequestException('eventType must be USER, GLOBAL or SHARED');
    const endpoint = message.sharedEndpoint;
    if (typeof endpoint !== 'string' || !isSafePath(endpoint)) {
      throw new BadRequestException('sharedEndpoint must be a path of letters, digits, "_" and "-" segments');
    }
    const destination = TOPIC_PREFIX + endpoint;
    if (this.authorizer.isProtected(destination))
      throw new ForbiddenException(`${destination} is not a shared endpoint`);
    return (body) => this.replies.toTopic(destination, body);
  }

  private fail(request: Request, error: unknown): void {
    const reply = errorReply(error, request.destination, request.requestId, request.actionId) as { status: number };
    if (reply.status >= 500)
      this.logger.error(`STOMP request ${request.requestId} failed`, error instanceof Error ? error.stack : error);
    const retryAfter = retryAfterSeconds(error);
    const headers: HeaderList = retryAfter === undefined ? [] : [['retry-after', String(retryAfter)]];
    this.replies.toUser(request.session, request.site, request.channel, reply, headers);
  }
}

/** The reply `{actionId, status: 200, payload}`; a payload that is JSON text already is spliced in, not parsed. */
function successReply(actionId: ActionId, payload: unknown): object | JsonText {
  if (!(payload instanceof JsonText)) return { actionId, status: 200, payload };
  return new JsonText(`{"actionId":${JSON.stringify(actionId)},"status":200,"payload":${payload.text}}`);
}

function parseMessage(body: Buffer): Record<string, unknown> {
  let message: unknown;
  try {
    message = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequestException('The message body must be JSON');
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw new BadRequestException('The message body must be a JSON object');
  }
  return message as Record<string, unknown>;
}

function actionIdOf(message: Record<string, unknown>): ActionId {
  const { actionId } = message;
  return typeof actionId === 'string' || typeof actionId === 'number' ? actionId : null;
}
