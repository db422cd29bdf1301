import { Injectable, OnModuleInit } from '@nestjs/common';
import { BeanAdmission } from '../../bean';
import { RequestContext } from '../../common/request-context';
import { RequestHandlerRegistry, RequestOrigin, StompRequestHandler } from './request-handler-registry';

/** `/request/bean`: a BeanRequestMessage `{beanId, functionName, args, scope}`, admitted and invoked as over REST. */
@Injectable()
export class BeanRequestHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    private readonly admission: BeanAdmission,
    private readonly registry: RequestHandlerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/bean', this);
  }

  /** Missing `args` means no arguments; the BasicRequestMessage fields around the call are not part of it. */
  async handle(
    { beanId, functionName, args = [], scope }: Record<string, unknown>,
    origin: RequestOrigin,
  ): Promise<unknown> {
    const { lang, site } = RequestContext.current();
    const envelope = { beanId, functionName, args, scope };
    const { result } = await this.admission.call({
      envelope,
      context: { lang, site },
      clientAddress: origin.remoteAddress,
    });
    return result;
  }
}
