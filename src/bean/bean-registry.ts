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
    const functions = groupIntoFunctions(this.exposedMethods(instance, meta));
    const minRole = lowestRole(
      [...functions.values()].map((fn) => fn.minRole),
      meta.role,
    );
    return { id: meta.id, role: meta.role, className, functions, minRole };
  }

  private exposedMethods(instance: object, bean: BeanMeta): BeanMethod[] {
    const prototype = Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => unknown>;
    return this.scanner.getAllMethodNames(prototype).flatMap((methodName) => {
      const exposed = this.reflector.get<ExposedMeta | undefined>(EXPOSED_KEY, prototype[methodName]);
      return exposed ? [toBeanMethod(instance, methodName, exposed, bean)] : [];
    });
  }
}

function toBeanMethod(instance: object, methodName: string, exposed: ExposedMeta, bean: BeanMeta): BeanMethod {
  const name = exposed.name ?? methodName;
  const method = (instance as Record<string, (...args: unknown[]) => unknown>)[methodName];
  return {
    beanId: bean.id,
    name,
    label: `${instance.constructor.name}.${methodName}`,
    role: exposed.role ?? bean.role,
    params: exposed.params,
    converters: exposed.params.map(converterFor),
    signature: `${name}(${exposed.params.map(paramTypeName).join(', ')})`,
    handler: method.bind(instance),
  };
}

function groupIntoFunctions(methods: BeanMethod[]): Map<string, BeanFunction> {
  const functions = new Map<string, BeanFunction>();
  for (const [name, overloads] of groupBy(methods, (method) => method.name)) {
    assertNoClash(overloads);
    const overloadsByArity = groupBy(overloads, (method) => method.params.length);
    const minRole = lowestRole(
      overloads.map((method) => method.role),
      Role.ADMIN,
    );
    functions.set(name, { name, overloads, overloadsByArity, minRole });
  }
  return functions;
}

function groupBy<K, V>(items: V[], keyOf: (item: V) => K): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

/** Two overloads clash when one argument list could match both; then no call could choose between them. */
function assertNoClash(overloads: BeanMethod[]): void {
  overloads.forEach((a, i) =>
    overloads.slice(i + 1).forEach((b) => {
      const overlap =
        a.params.length === b.params.length && a.params.every((type, k) => typesOverlap(type, b.params[k]));
      if (overlap) {
        throw new Error(
          `Clashing signatures in bean '${a.beanId}': ${a.label} ${a.signature} and ${b.label} ${b.signature}`,
        );
      }
    }),
  );
}

function lowestRole(roles: Role[], fallback: Role): Role {
  if (roles.length === 0) return fallback;
  return roles.reduce((lowest, role) => (roleRank[role] < roleRank[lowest] ? role : lowest));
}
