import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config';
import { StompFrame } from '../stomp/frame';
import { ConnectHandler } from './connect-handler';
import { HeartbeatMonitor } from './heartbeat-monitor';
import { LiveSessions } from './live-sessions';
import { SendHandler } from './send-handler';
import { FrameHandler, SessionOptions, StompSession } from './stomp-session';
import { StompTransport } from './stomp-transport';
import { SubscriptionHandler } from './subscription-handler';

const MAX_HEADERS = 64;

/** Opens sessions for transports and routes each frame by its command; closes every session at shutdown. */
@Injectable()
export class StompProtocol extends LiveSessions implements FrameHandler, BeforeApplicationShutdown {
  private readonly sessions = new Set<StompSession>();
  private readonly options: SessionOptions;

  constructor(
    private readonly connector: ConnectHandler,
    private readonly subscriptions: SubscriptionHandler,
    private readonly sends: SendHandler,
    private readonly monitor: HeartbeatMonitor,
    { stomp }: AppConfig,
  ) {
    super();
    this.options = {
      limits: { maxFrameBytes: stomp.maxFrameBytes, maxHeaders: MAX_HEADERS },
      maxBufferedBytes: stomp.maxBufferedBytes,
      reverifyEveryMs: stomp.reverifyEveryMs,
    };
  }

  open(transport: StompTransport): StompSession {
    const session = new StompSession(transport, this, this.monitor, this.options);
    this.sessions.add(session);
    return session;
  }

  beforeApplicationShutdown(): void {
    for (const session of this.sessions) session.close('going-away');
  }

  onFrame(session: StompSession, frame: StompFrame): void | Promise<void> {
    if (!session.connected) return this.connector.connect(session, frame);
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.subscriptions.subscribe(session, frame);
      case 'UNSUBSCRIBE':
        return this.subscriptions.unsubscribe(session, frame);
      case 'SEND':
        return this.sends.send(session, frame);
      // Every subscription is delivered as if ack mode were auto, and SENDs take effect at once, so
      // acknowledgements and transaction boundaries only need their receipts.
      case 'ACK':
      case 'NACK':
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return session.acknowledge(frame);
      case 'DISCONNECT':
        session.acknowledge(frame);
        return session.close();
      default:
        return session.fail('PROTOCOL_ERROR', `Unexpected frame ${frame.command}`, '', frame);
    }
  }

  onReverify(session: StompSession, token: string): void {
    this.connector.reverify(session, token);
  }

  reverifyUser(userId: string): void {
    for (const session of this.sessions) {
      const token = session.principal?.id === userId ? session.token : undefined;
      if (token !== undefined) this.connector.reverify(session, token);
    }
  }

  onClose(session: StompSession): void {
    this.subscriptions.removeAll(session);
    this.sessions.delete(session);
  }
}
