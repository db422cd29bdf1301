import { Injectable } from '@nestjs/common';

/** Reply topics end in this segment: `/topic/<site>/json` or `/topic/<site>/render`. */
export type ReplyChannel = 'json' | 'render';

/** Where a request comes from, beyond the principal in `RequestContext`. */
export interface RequestOrigin {
  remoteAddress: string;
}

/** Serves one application destination under `/request/`. */
export interface StompRequestHandler {
  readonly channel: ReplyChannel;
  /**
   * Runs inside the request's `RequestContext` (principal, lang, site); the result becomes the reply's
   * `payload`. Throw Nest `HttpException`s to answer with an error.
   */
  handle(message: Record<string, unknown>, origin: RequestOrigin): Promise<unknown>;
}

/** Application destinations; modules register theirs at start-up (`onModuleInit`). */
@Injectable()
export class RequestHandlerRegistry {
  private readonly handlers = new Map<string, StompRequestHandler>();

  /**
   * @example registry.register('/request/json', this);
   * @throws Error when the destination is taken
   */
  register(destination: `/request/${string}`, handler: StompRequestHandler): void {
    if (this.handlers.has(destination)) throw new Error(`STOMP destination ${destination} is already handled`);
    this.handlers.set(destination, handler);
  }

  find(destination: string): StompRequestHandler | undefined {
    return this.handlers.get(destination);
  }
}
