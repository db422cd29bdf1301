import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TokenVerifier } from '../../auth/token-verifier';
import { toErrorBody } from '../../common/errors/error-body';
import { AppConfig } from '../../config';
import { ContextHeaders } from '../../sites/context-headers';
import { STOMP_VERSIONS, StompFrame } from '../stomp/frame';
import { bearerToken, header, Heartbeats, negotiateHeartbeats, negotiateVersion } from './negotiation';
import { StompSession } from './stomp-session';

const SERVER = 'ccb-stomp/1.0';

/** The first frame of a session: CONNECT (or STOMP), version and heart-beat negotiation, authentication. */
@Injectable()
export class ConnectHandler {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly config: AppConfig,
    private readonly contextHeaders: ContextHeaders,
  ) {}

  connect(session: StompSession, frame: StompFrame): void | Promise<void> {
    if (frame.command !== 'CONNECT' && frame.command !== 'STOMP')
      return session.fail('PROTOCOL_ERROR', 'Expected a CONNECT frame', '', frame);
    const version = negotiateVersion(frame.headers['accept-version']);
    if (!version) {
      return session.fail(
        'PROTOCOL_ERROR',
        'Unsupported protocol version',
        `Supported: ${STOMP_VERSIONS.join(',')}`,
        frame,
        [['version', STOMP_VERSIONS.join(',')]],
      );
    }
    session.version = version;
    const heartbeats = negotiateHeartbeats(frame.headers['heart-beat'], this.config.stomp.heartbeat, version);
    if (!heartbeats) return session.fail('PROTOCOL_ERROR', 'Malformed heart-beat header', '', frame);
    const lang = header(frame.headers, 'Lang-Context');
    const site = header(frame.headers, 'Site-Context');
    if (lang === undefined && site === undefined) return this.authenticate(session, frame, heartbeats);
    return this.takeContext(session, { lang: lang ?? session.lang, site: site ?? session.site }).then(
      () => this.authenticate(session, frame, heartbeats),
      (error: unknown) => session.failWithBody(toErrorBody(error, 'CONNECT', randomUUID()), frame),
    );
  }

  /** A session whose token was revoked since CONNECT (logout, disabled user, changed role) is closed. */
  reverify(session: StompSession, token: string): void {
    this.verifier.verify(token).catch(() => session.fail('TOKEN_INVALID', 'Token revoked'));
  }

  /** The session's defaults for the context headers, checked as REST checks them (the ERROR body is REST's 400). */
  private async takeContext(session: StompSession, context: { lang: string; site: string }): Promise<void> {
    await this.contextHeaders.check(context);
    session.lang = context.lang;
    session.site = context.site;
  }

  private authenticate(session: StompSession, frame: StompFrame, heartbeats: Heartbeats): void | Promise<void> {
    const token = bearerToken(frame.headers);
    if (token === undefined) return this.accept(session, heartbeats);
    if (token === null)
      return session.fail('TOKEN_INVALID', 'Unauthorized', 'Authorization must be "Bearer <token>"', frame);
    return this.verifier.verify(token).then(
      (principal) => {
        session.authenticate(principal, token);
        this.accept(session, heartbeats);
      },
      () => session.fail('TOKEN_INVALID', 'Unauthorized', 'Invalid or expired token', frame),
    );
  }

  private accept(session: StompSession, heartbeats: Heartbeats): void {
    const { principal } = session;
    if (!session.isOpen) return;
    session.connected = true;
    session.startHeartbeats(heartbeats.sendEvery, heartbeats.expectEvery);
    session.sendFrame('CONNECTED', [
      ['version', session.version],
      ['heart-beat', `${heartbeats.sendEvery},${heartbeats.expectEvery}`],
      ['server', SERVER],
      ['session', session.id],
      ...(principal ? ([['user-name', principal.username]] as const) : []),
    ]);
  }
}
