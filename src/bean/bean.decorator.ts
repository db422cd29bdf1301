import { applyDecorators, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Role } from '../common/principal';

export interface BeanMeta {
  id: string;
  /** Default access level of the bean's exposed methods. */
  role: Role;
}

/** The discoverable marker behind `@Bean`; the registry finds providers by its key. */
export const BeanMarker = DiscoveryService.createDecorator<BeanMeta>();

/**
 * Makes a provider callable through the unified call under `id`. Only methods marked `@Exposed` are callable;
 * `role` is their default access level. The class is injectable by this alone (no `@Injectable()` beside it).
 * @example
 * @Bean('jobsManagementServiceImpl', Role.ADMIN)
 * export class JobsService { @Exposed(['String', 'int']) startJob(type: string, total: number) { ... } }
 */
export function Bean(id: string, role: Role): ClassDecorator {
  return applyDecorators(Injectable(), BeanMarker({ id, role }));
}
Bean.KEY = BeanMarker.KEY;
