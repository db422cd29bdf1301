import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/request-context';
import { ContextHeaderCheck, ContextHeaderValues } from '../../common/context-header-check';
import { parseBeanCall } from '../bean-call';
import { BeanInvoker } from '../bean-invoker';
import { BeanRateLimit, RateQuota } from './bean-rate-limit';

/** One bean call as a transport received it, inside the call's `RequestContext` (which holds the principal). */
export interface BeanCallRequest {
  /** `{beanId, functionName, args, scope}`, not yet checked. */
  envelope: unknown;
  context: ContextHeaderValues;
  /** Guests are rate limited by it. */
  clientAddress: string;
}

export interface AdmittedCall {
  /** The bean's return value; transports encode it with `toJsonResult` (or raw bytes over REST). */
  result: unknown;
  quota: RateQuota;
}

/**
 * The one way into a bean, for REST and STOMP alike: context headers, then the rate limit of the principal (or of
 * the client address for guests), then the invoker, which checks the principal's role against the bean's.
 * Refusals are HttpExceptions that both transports answer with the DESIGN §3 body.
 */
@Injectable()
export class BeanAdmission {
  constructor(
    private readonly contextHeaders: ContextHeaderCheck,
    private readonly rateLimit: BeanRateLimit,
    private readonly invoker: BeanInvoker,
  ) {}

  async call({ envelope, context, clientAddress }: BeanCallRequest): Promise<AdmittedCall> {
    const siteLookUp = this.contextHeaders.check(context);
    if (siteLookUp) await siteLookUp;
    const quota = await this.rateLimit.consume(RequestContext.principal(), clientAddress);
    const result = await this.invoker.invoke(parseBeanCall(envelope));
    return { result, quota };
  }
}
