import { Injectable } from '@nestjs/common';
import { TokenVerifier } from '../../auth/token-verifier.service';
import { AppConfig } from '../../config';
import { isSiteId } from '../../sites/site-id';
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
  ) {}

  connect(session: StompSession, frame: StompFrame): void | Promise<void> {
    if (frame.command !== 'CONNECT' && frame.command !== 'STOMP') return session.fail('Expected a CONNECT frame', '', frame);
    const version = negotiateVersion(frame.headers['accept-version']);
    if (!version) {
      return session.fail('Unsupported protocol version', `Supported: ${STOMP_VERSIONS.join(',')}`, frame, [['version', STOMP_VERSIONS.join(',')]]);
    }
    session.version = version;
    const heartbeats = negotiateHeartbeats(frame.headers['heart-beat'], this.config.stomp.heartbeat, version);
    if (!heartbeats) return session.fail('Malformed heart-beat header', '', frame);
    if (!this.takeContext(session, frame)) return session.fail('Malformed Site-Context header', '', frame);
    const token = bearerToken(frame.headers);
    if (token === undefined) return this.accept(session, heartbeats);
    if (token === null) return session.fail('Unauthorized', 'Authorization must be "Bearer <token>"', frame);
    return this.verifier.verify(token).then(
      (principal) => {
        session.authenticate(principal, token);
        this.accept(session, heartbeats);
      },
      () => session.fail('Unauthorized', 'Invalid or expired token', frame),
    );
  }

  /** A session whose token was revoked since CONNECT (logout, disabled user, changed role) is closed. */
  reverify(session: StompSession, token: string): void {
    this.verifier.verify(token).catch(() => session.fail('Token revoked'));
  }

  private takeContext(session: StompSession, frame: StompFrame): boolean {
    const site = header(frame.headers, 'Site-Context');
    if (site !== undefined && !isSiteId(site)) return false;
    session.site = site ?? session.site;
    session.lang = header(frame.headers, 'Lang-Context') ?? session.lang;
    return true;
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
