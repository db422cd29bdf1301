import type { Beans } from './generated/beans';

export type Invoke = (beanId: string, functionName: string, args: readonly unknown[]) => Promise<unknown>;

/**
 * `beans.<beanId>.<functionName>(...args)` for any bean: the names are checked by the `Beans` type at compile time
 * and by the server at run time, so nothing here lists them.
 */
export function beanProxies(invoke: Invoke): Beans {
  const handler: ProxyHandler<object> = {
    get: (_, beanId) =>
      typeof beanId === 'string' ? new Proxy({}, { get: (__, name) => functionOf(invoke, beanId, name) }) : undefined,
  };
  return new Proxy({}, handler) as Beans;
}

type BeanFunction = (...args: unknown[]) => Promise<unknown>;

function functionOf(invoke: Invoke, beanId: string, functionName: string | symbol): BeanFunction | undefined {
  // `then` is probed by `await` and promise libraries: a bean proxy must not look like a promise.
  if (typeof functionName !== 'string' || functionName === 'then') return undefined;
  return (...args: unknown[]) => invoke(beanId, functionName, args);
}
