import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { ThrottlerException, ThrottlerStorage } from '@nestjs/throttler';
import { BeanInvoker, parseBeanCall } from '../../bean';
import { RequestContext } from '../../common/request-context';
import { AppConfig } from '../../config/app-config';
import { RequestHandlerRegistry, RequestOrigin, StompRequestHandler } from './request-handler-registry';

const ONE_MINUTE_MS = 60_000;
/** The bucket of `BeanThrottlerGuard`: REST and STOMP calls of one principal share one budget. */
const THROTTLER = 'bean-calls';

/** `/request/bean`: a BeanRequestMessage `{beanId, functionName, args, scope}`, invoked as over REST. */
@Injectable()
export class BeanRequestHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    private readonly invoker: BeanInvoker,
    private readonly registry: RequestHandlerRegistry,
    @Inject(ThrottlerStorage) private readonly throttler: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/bean', this);
  }

  /** Missing `args` means no arguments; the BasicRequestMessage fields around the call are not part of it. */
  async handle({ beanId, functionName, args = [], scope }: Record<string, unknown>, origin: RequestOrigin): Promise<unknown> {
    await this.throttle(origin);
    return this.invoker.invoke(parseBeanCall({ beanId, functionName, args, scope }));
  }

  private async throttle({ remoteAddress }: RequestOrigin): Promise<void> {
    const principal = RequestContext.principal();
    const tracker = principal ? `principal:${principal.id}` : `address:${remoteAddress}`;
    const limit = this.config.beanRateLimitPerMinute;
    const { isBlocked } = await this.throttler.increment(`${THROTTLER}:${tracker}`, ONE_MINUTE_MS, limit, ONE_MINUTE_MS, THROTTLER);
    if (isBlocked) throw new ThrottlerException(`Too many calls: at most ${limit} per minute`);
  }
}
