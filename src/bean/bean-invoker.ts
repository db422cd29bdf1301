import { Injectable } from '@nestjs/common';
import { assertAccess } from '../common/access';
import { RequestContext } from '../common/request-context';
import { assertSafeArguments, toPositional } from './argument-forms';
import { BeanRegistry } from './bean-registry';
import { convertArguments, resolveOverload } from './overload-resolution';
import { codedError } from '../common/errors/coded-exception';

/** One call of one bean function, as REST and STOMP receive it (already envelope-validated). */
export interface BeanCall {
  beanId: string;
  functionName: string;
  args: unknown[];
  scope?: string;
}

/**
 * Calls a bean function for the principal of the current `RequestContext`. Access is checked before anything about
 * the call is revealed: bean (its lowest role), function (its lowest role), then the chosen overload.
 */
@Injectable()
export class BeanInvoker {
  constructor(private readonly registry: BeanRegistry) {}

  /** @throws HttpException 404 unknown bean, 400 bad call, 401/403 refused */
  async invoke(call: BeanCall): Promise<unknown> {
    const principal = RequestContext.principal();
    const bean = this.registry.find(call.beanId);
    if (!bean) throw codedError('UNKNOWN_BEAN', `Unknown bean '${call.beanId}'`);
    assertAccess(principal, bean.minRole);
    const fn = bean.functions.get(call.functionName);
    if (!fn) throw codedError('UNKNOWN_FUNCTION', `Bean '${bean.id}' has no function '${call.functionName}'`);
    assertAccess(principal, fn.minRole);
    assertSafeArguments(call.args);
    const args = toPositional(call.args);
    const method = resolveOverload(fn, args);
    assertAccess(principal, method.role);
    return method.handler(...convertArguments(method, args));
  }
}
