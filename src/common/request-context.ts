import { AsyncLocalStorage } from 'node:async_hooks';
import { Principal } from './principal';

export interface RequestContextData {
  requestId: string;
  lang: string;
  site: string;
  principal: Principal | null;
}

const storage = new AsyncLocalStorage<RequestContextData>();

/** Language, site and caller of the current request, available anywhere below the transport. */
export class RequestContext {
  static run<T>(data: RequestContextData, fn: () => T): T {
    return storage.run(data, fn);
  }

  /** @throws Error when called outside a request. */
  static current(): RequestContextData {
    const data = storage.getStore();
    if (!data) throw new Error('RequestContext.current() called outside a request');
    return data;
  }

  /** The current request's context, or undefined outside a request. */
  static find(): RequestContextData | undefined {
    return storage.getStore();
  }

  static principal(): Principal | null {
    return RequestContext.current().principal;
  }
}
