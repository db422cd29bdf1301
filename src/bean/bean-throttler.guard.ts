import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import {
  THROTTLER_BLOCK_DURATION,
  THROTTLER_KEY_GENERATOR,
  THROTTLER_LIMIT,
  THROTTLER_SKIP,
  THROTTLER_TRACKER,
  THROTTLER_TTL,
} from '@nestjs/throttler/dist/throttler.constants';
import type { AuthenticatedRequest } from '../auth/authenticated-request';

/** One throttler's settings for one route, its `@Throttle`/`@SkipThrottle` metadata applied. */
type RouteThrottle = Omit<ThrottlerRequest, 'context'> & { skip: boolean };

/**
 * Rate limit of bean calls per principal; guests are counted per client address. The library's guard reads six
 * metadata keys per throttler on every request; this one reads them once per route and keeps the result. A setting
 * that is a function of the request (or a `skipIf`) sends the route through the library's own path.
 */
@Injectable()
export class BeanThrottlerGuard extends ThrottlerGuard {
  private readonly routes = new WeakMap<object, RouteThrottle[] | null>();

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const throttles = this.routeThrottles(context);
    if (!throttles) return super.canActivate(context);
    for (const { skip, ...throttle } of throttles) if (!skip) await this.handleRequest({ context, ...throttle });
    return true;
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const { principal, ip } = request as unknown as AuthenticatedRequest;
    return Promise.resolve(principal ? `principal:${principal.id}` : `address:${ip ?? ''}`);
  }

  /** The guard sits on one route only, so the tracker alone is a unique key (the default hashes route names each call). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  private routeThrottles(context: ExecutionContext): RouteThrottle[] | null {
    const handler = context.getHandler();
    if (!this.routes.has(handler)) this.routes.set(handler, this.readRouteThrottles([handler, context.getClass()]));
    return this.routes.get(handler)!;
  }

  private readRouteThrottles(targets: [object, object]): RouteThrottle[] | null {
    const read = <T>(key: string, name = ''): T | undefined =>
      this.reflector.getAllAndOverride<T>(key + name, targets as never);
    const throttles = this.throttlers.map((throttler) => {
      const name = throttler.name;
      const ttl = read<unknown>(THROTTLER_TTL, name) ?? throttler.ttl;
      return {
        throttler,
        skip: Boolean(read<boolean>(THROTTLER_SKIP, name)),
        limit: read<unknown>(THROTTLER_LIMIT, name) ?? throttler.limit,
        ttl,
        blockDuration: read<unknown>(THROTTLER_BLOCK_DURATION, name) ?? throttler.blockDuration ?? ttl,
        getTracker: read(THROTTLER_TRACKER, name) ?? throttler.getTracker ?? this.commonOptions.getTracker!,
        generateKey: read(THROTTLER_KEY_GENERATOR, name) ?? throttler.generateKey ?? this.commonOptions.generateKey!,
        dynamic: Boolean(throttler.skipIf ?? this.commonOptions.skipIf),
      };
    });
    const isNumber = (value: unknown) => typeof value === 'number';
    const fixed = throttles.every((t) => !t.dynamic && [t.limit, t.ttl, t.blockDuration].every(isNumber));
    return fixed ? throttles.map(({ dynamic: _, ...throttle }) => throttle as RouteThrottle) : null;
  }
}
