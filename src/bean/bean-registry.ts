import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper';
import { Role, roleRank } from '../common/principal';
import { converterFor, typesOverlap } from './argument-conversion';
import { BeanDescriptor, BeanFunction, BeanMethod } from './bean-descriptor';
import { Bean, BeanMarker, BeanMeta } from './bean.decorator';
import { EXPOSED_KEY, ExposedMeta } from './exposed.decorator';
import { paramTypeName } from './param-types';

/**
 * Every `@Bean` provider and its exposed methods, discovered once at start-up. The single source for the gateway,
 * STOMP, the OpenAPI bean catalogue and the access matrix. Fails fast on duplicate bean ids and clashing signatures.
 */
@Injectable()
export class BeanRegistry implements OnModuleInit {
  private readonly logger = new Logger(BeanRegistry.name);
  private beans = new Map<string, BeanDescriptor>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const beans = new Map<string, BeanDescriptor>();
    for (const wrapper of this.discovery.getProviders({ metadataKey: Bean.KEY })) {
      const bean = this.describeBean(wrapper);
      const existing = beans.get(bean.id);
      if (existing) throw new Error(`Duplicate bean id '${bean.id}': ${existing.className} and ${bean.className}`);
      beans.set(bean.id, bean);
    }
    this.beans = beans;
    this.logger.log(`Registered ${beans.size} beans`);
  }

  find(beanId: string): BeanDescriptor | undefined {
    return this.beans.get(beanId);
  }

  list(): BeanDescriptor[] {
    return [...this.beans.values()];
  }

  private describeBean(wrapper: InstanceWrapper): BeanDescriptor {
    const meta = this.discovery.getMetadataByDecorator(BeanMarker, wrapper) as BeanMeta;
    const instance = wrapper.instance as object | undefined;
    if (!instance || !wrapper.isDependencyTreeStatic()) {
      throw new Error(`Bean '${meta.id}' (${String(wrapper.name)}) must be a singleton provider`);
    }
    const className = instance.constructor.name;
    const methods = this.exposedMethods(instance, meta, className);
    const functions = groupIntoFunctions(methods);
    return { id: meta.id, role: meta.role, className, functions, minRole: lowestRole([...functions.values()].map((f) => f.minRole), meta.role) };
  }

  private exposedMethods(instance: object, bean: BeanMeta, className: string): BeanMethod[] {
    const prototype = Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => unknown>;
    return this.scanner.getAllMethodNames(prototype).flatMap((methodName) => {
      const exposed = this.reflector.get<ExposedMeta | undefined>(EXPOSED_KEY, prototype[methodName]);
      if (!exposed) return [];
      const name = exposed.name ?? methodName;
      const method: BeanMethod = {
        beanId: bean.id,
        name,
        label: `${className}.${methodName}`,
        role: exposed.role ?? bean.role,
        params: exposed.params,
        converters: exposed.params.map(converterFor),
        signature: `${name}(${exposed.params.map(paramTypeName).join(', ')})`,
        handler: prototype[methodName].bind(instance),
      };
      return [method];
    });
  }
}

function groupIntoFunctions(methods: BeanMethod[]): Map<string, BeanFunction> {
  const byName = new Map<string, BeanMethod[]>();
  for (const method of methods) byName.set(method.name, [...(byName.get(method.name) ?? []), method]);
  const functions = new Map<string, BeanFunction>();
  for (const [name, overloads] of byName) {
    assertNoClash(overloads);
    const overloadsByArity = new Map<number, BeanMethod[]>();
    for (const method of overloads) overloadsByArity.set(method.params.length, [...(overloadsByArity.get(method.params.length) ?? []), method]);
    functions.set(name, { name, overloads, overloadsByArity, minRole: lowestRole(overloads.map((m) => m.role), Role.ADMIN) });
  }
  return functions;
}

/** Two overloads clash when one argument list could match both; then no call could choose between them. */
function assertNoClash(overloads: BeanMethod[]): void {
  overloads.forEach((a, i) =>
    overloads.slice(i + 1).forEach((b) => {
      const overlap = a.params.length === b.params.length && a.params.every((type, k) => typesOverlap(type, b.params[k]));
      if (overlap) throw new Error(`Clashing signatures in bean '${a.beanId}': ${a.label} ${a.signature} and ${b.label} ${b.signature}`);
    }),
  );
}

function lowestRole(roles: Role[], fallback: Role): Role {
  if (roles.length === 0) return fallback;
  return roles.reduce((lowest, role) => (roleRank[role] < roleRank[lowest] ? role : lowest));
}
