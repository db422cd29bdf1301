import { Injectable, OnApplicationShutdown, ServiceUnavailableException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Duplex } from 'node:stream';

/** Still answered while draining: the health checks say themselves that the instance is going away. */
const HEALTH_PATHS = '/api/v1/health';

/** A refused WebSocket upgrade, written on the raw socket (upgrades do not pass through Express). */
const REFUSED_UPGRADE =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n';

/**
 * The first phase of a shutdown (issue 25). From the signal on, for `SHUTDOWN_DRAIN_MS`, the instance keeps its
 * listener open but takes no new work: readiness answers 503, and every new request (WebSocket upgrades included)
 * is answered 503 with `Connection: close` before any middleware or route has touched it, so a proxy may retry it
 * on another instance, whatever its method. nginx (open source) does not poll readiness: it is these 503s, with
 * `proxy_next_upstream http_503`, that make it retry and stop sending here (`max_fails`), so that nothing is
 * reaching the listener when it closes (a connection still in its backlog then would be reset). Requests already
 * under way go on, and their responses close their connection instead of keeping it alive.
 */
@Injectable()
export class ShutdownDrain implements OnApplicationShutdown {
  private started = false;
  private readonly underWay = new Set<Response>();
  private readonly closedListeners: (() => void)[] = [];
  private readonly beginListeners: (() => void)[] = [];

  get draining(): boolean {
    return this.started;
  }

  begin(): void {
    this.started = true;
    for (const response of this.underWay) if (!response.headersSent) response.setHeader('Connection', 'close');
    this.beginListeners.splice(0).forEach((listener) => listener());
  }

  /** `listener` runs when the drain begins: for what serves clients outside Express (SockJS). */
  onBegin(listener: () => void): void {
    this.beginListeners.push(listener);
  }

  /** Express middleware, first in line: refuses new requests while draining, else keeps track of them. */
  middleware() {
    return (request: Request, response: Response, next: NextFunction): void => {
      if (this.started) return this.refuse(request, response, next);
      this.underWay.add(response);
      response.once('close', () => this.underWay.delete(response));
      next();
    };
  }

  /** For the `upgrade` listener: true (and the socket answered 503 and closed) when it must not be upgraded. */
  refusedUpgrade(socket: Duplex): boolean {
    if (!this.started) return false;
    socket.end(REFUSED_UPGRADE);
    return true;
  }

  /** `listener` runs once the application has been closed, by a signal or by a caller of `app.close()`. */
  onClosed(listener: () => void): void {
    this.closedListeners.push(listener);
  }

  onApplicationShutdown(): void {
    this.closedListeners.splice(0).forEach((listener) => listener());
  }

  private refuse(request: Request, response: Response, next: NextFunction): void {
    response.setHeader('Connection', 'close');
    if (request.path.startsWith(HEALTH_PATHS)) return next();
    response.setHeader('Retry-After', '1');
    next(new ServiceUnavailableException('This instance is shutting down; the request was not processed, retry it'));
  }
}
