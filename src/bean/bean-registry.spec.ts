import { Injectable, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Role } from '../common/principal';
import { BeanCoreModule } from './bean-core.module';
import { BeanRegistry } from './bean-registry';
import { Bean } from './bean.decorator';
import { Exposed } from './exposed.decorator';

async function registryOf(...beans: Type[]): Promise<BeanRegistry> {
  @Module({ imports: [BeanCoreModule], providers: beans })
  class HostModule {}
  const context = await NestFactory.createApplicationContext(HostModule, { logger: false, abortOnError: false });
  const registry = context.get(BeanRegistry);
  await context.close();
  return registry;
}

@Bean('orders', Role.ADMIN)
class OrdersBean {
  @Exposed() list() {}
  @Exposed(['String'], { name: 'list' }) listOf(_buyer: string) {}
  @Exposed([], { role: Role.GUEST }) providers() {}
  helper() {}
}

@Injectable()
class PlainProvider {
  @Exposed() ignored() {}
}

describe(BeanRegistry.name, () => {
  describe('discovery', () => {
    it('should be empty without beans', async () => {
      expect((await registryOf(PlainProvider)).list()).toEqual([]);
    });

    it('should register exposed methods only, labelled Class.method, grouped into overloaded functions', async () => {
      const bean = (await registryOf(OrdersBean, PlainProvider)).find('orders');
      expect(bean).toMatchObject({ id: 'orders', role: Role.ADMIN, className: 'OrdersBean', minRole: Role.GUEST });
      expect([...bean!.functions.keys()].sort()).toEqual(['list', 'providers']);
      const list = bean!.functions.get('list')!;
      expect(list.overloads.map((m) => [m.label, m.signature, m.role])).toEqual([
        ['OrdersBean.list', 'list()', Role.ADMIN],
        ['OrdersBean.listOf', 'list(String)', Role.ADMIN],
      ]);
      expect(bean!.functions.get('providers')!.minRole).toBe(Role.GUEST);
    });
  });

  describe('fail fast', () => {
    it('should refuse two beans with one id', async () => {
      @Bean('orders', Role.GUEST)
      class OtherOrdersBean {}
      await expect(registryOf(OrdersBean, OtherOrdersBean)).rejects.toThrow("Duplicate bean id 'orders'");
    });

    it.each([
      [['String'], ['String']],
      [['String'], ['int']],
      [['Map'], ['Map']],
    ] as const)('should refuse overloads %j and %j that one call could match', async (first, second) => {
      @Bean('clashing', Role.ADMIN)
      class ClashingBean {
        @Exposed([...first], { name: 'find' }) findA() {}
        @Exposed([...second], { name: 'find' }) findB() {}
      }
      await expect(registryOf(ClashingBean)).rejects.toThrow("Clashing signatures in bean 'clashing'");
    });
  });
});
