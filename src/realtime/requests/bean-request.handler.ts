import { Injectable, OnModuleInit } from '@nestjs/common';
import { BeanInvoker, parseBeanCall } from '../../bean';
import { RequestHandlerRegistry, StompRequestHandler } from './request-handler-registry';

/** `/request/bean`: a BeanRequestMessage `{beanId, functionName, args, scope}`, invoked as over REST. */
@Injectable()
export class BeanRequestHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    private readonly invoker: BeanInvoker,
    private readonly registry: RequestHandlerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/bean', this);
  }

  /** Missing `args` means no arguments; the BasicRequestMessage fields around the call are not part of it. */
  handle({ beanId, functionName, args = [], scope }: Record<string, unknown>): Promise<unknown> {
    return this.invoker.invoke(parseBeanCall({ beanId, functionName, args, scope }));
  }
}
