import { Role } from '../common/principal';
import { ArgumentConverter } from './argument-conversion';
import { ParamType } from './param-types';

/** One exposed method of a bean, ready to call; precomputed at start-up. */
export interface BeanMethod {
  readonly beanId: string;
  /** The name clients call (several methods may share it as overloads). */
  readonly name: string;
  /** `Class.method`, for logs and start-up errors. */
  readonly label: string;
  readonly role: Role;
  readonly params: readonly ParamType[];
  readonly converters: readonly ArgumentConverter[];
  /** e.g. `startJob(String, int)` */
  readonly signature: string;
  readonly handler: (...args: unknown[]) => unknown;
}

/** All overloads of one function name. */
export interface BeanFunction {
  readonly name: string;
  readonly overloads: readonly BeanMethod[];
  readonly overloadsByArity: ReadonlyMap<number, readonly BeanMethod[]>;
  /** The lowest role of any overload: callers below it are refused before overload resolution. */
  readonly minRole: Role;
}

export interface BeanDescriptor {
  readonly id: string;
  readonly role: Role;
  readonly className: string;
  readonly functions: ReadonlyMap<string, BeanFunction>;
  /** The lowest role of any function (the bean role when nothing is exposed). */
  readonly minRole: Role;
}
