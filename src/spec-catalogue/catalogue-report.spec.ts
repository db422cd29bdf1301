import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import { Bean, BeanDescriptor, BeanRegistry, Exposed, MapOf } from '../bean';
import { BeanCoreModule } from '../bean/bean-core.module';
import { Role } from '../common/principal';
import { compareWithSpec, formatRegistry, formatReport } from './catalogue-report';
import { parseSpecMethods } from './spec-methods';

class ItemDto {
  @IsString() sku!: string;
}

@Bean('cartServiceImpl', Role.GUEST)
class CartBean {
  @Exposed(['String']) addItem(_sku: string) {}
  @Exposed([MapOf(ItemDto)], { name: 'addItem' }) addItemFrom(_item: ItemDto) {}
  @Exposed(['String', 'int']) updateQuantity(_id: string, _quantity: number) {}
  @Exposed() audit() {}
}

const SPEC = [
  '**cartServiceImpl**',
  '- `addItem(data: Map) → Cart`',
  '- `addItem(sku) → Cart`',
  '- `updateQuantity(itemId, quantity) → Cart`',
  '- `clear() → void`',
  '',
  '**ordersServiceImpl**',
  '- `getOrder(id) → Order`',
  '- `pay(id) → Status`',
].join('\n');

describe('catalogue report', () => {
  let beans: BeanDescriptor[];

  beforeAll(async () => {
    @Module({ imports: [BeanCoreModule], providers: [CartBean] })
    class HostModule {}
    const context = await NestFactory.createApplicationContext(HostModule, { logger: false });
    beans = context.get(BeanRegistry).list();
    await context.close();
  });

  describe('compareWithSpec', () => {
    it('should match overloads by signature first, then by name and arity', () => {
      const { matches, extra } = compareWithSpec(parseSpecMethods(SPEC), beans);
      expect(matches.map((m) => m.registered ?? null)).toEqual([
        'addItem(Map)',
        'addItem(String)',
        'updateQuantity(String, int)',
        null,
        null,
        null,
      ]);
      expect(extra).toEqual(['cartServiceImpl.audit()']);
    });
  });

  describe('formatReport', () => {
    it('should mark each method, name type differences and end with the summary', () => {
      const lines = formatReport(compareWithSpec(parseSpecMethods(SPEC), beans));
      expect(lines).toEqual(
        expect.arrayContaining([
          'cartServiceImpl (3/4)',
          '  ok addItem(Map)',
          '  ok updateQuantity(String, String)   (registered as updateQuantity(String, int))',
          '  -- clear()',
          '  + cartServiceImpl.audit()',
        ]),
      );
      expect(lines.at(-1)).toBe(
        'registered 3/6 spec methods; missing: cartServiceImpl.clear(), ordersServiceImpl (all 2)',
      );
    });
  });

  describe('formatRegistry', () => {
    it('should list every registered signature when there is no spec', () => {
      expect(formatRegistry(beans)).toEqual([
        '  cartServiceImpl.addItem(Map)',
        '  cartServiceImpl.addItem(String)',
        '  cartServiceImpl.audit()',
        '  cartServiceImpl.updateQuantity(String, int)',
        '',
        'registered 4 methods in 1 beans; no spec to compare with',
      ]);
    });
  });
});
