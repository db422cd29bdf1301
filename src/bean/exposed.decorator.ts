import { SetMetadata } from '@nestjs/common';
import { Role } from '../common/principal';
import { ParamType } from './param-types';

export interface ExposedOptions {
  /** Name clients call; defaults to the method name. Lets several TS methods form one overloaded function. */
  name?: string;
  /** Access level of this method; defaults to the bean's role. */
  role?: Role;
}

export interface ExposedMeta extends ExposedOptions {
  params: ParamType[];
}

export const EXPOSED_KEY = 'ccb:bean:exposed';

/**
 * Exposes a method of a `@Bean` through the unified call, with its declared parameter types
 * (TypeScript erases them, so they are stated here). Methods without it are never callable.
 * @example
 * @Exposed() getElements(): TreeElement[] { ... }
 * @Exposed(['String', 'int']) startJob(type: string, total: number) { ... }
 * @Exposed(['String'], { name: 'getCartDTO', role: Role.ADMIN }) getCartOfBuyer(buyerId: string) { ... }
 */
export function Exposed(params: ParamType[] = [], options: ExposedOptions = {}): MethodDecorator {
  return SetMetadata<string, ExposedMeta>(EXPOSED_KEY, { params, ...options });
}
