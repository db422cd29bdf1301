import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { AuthenticatedRequest } from '../auth/authenticated-request';

/** Rate limit of bean calls per principal; guests are counted per client address. */
@Injectable()
export class BeanThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const { principal, ip } = request as unknown as AuthenticatedRequest;
    return Promise.resolve(principal ? `principal:${principal.id}` : `address:${ip ?? ''}`);
  }

  /** The guard sits on one route only, so the tracker alone is a unique key (the default hashes route names each call). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }
}
