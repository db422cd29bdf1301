import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSources, repositoryRoot } from './model-ownership';
import { filesOf, Hop, missingHops, renderWalk } from './order-path';
import { ORDER_PATH, ORDER_PATH_FILES } from './order-path.walk';

const MAX_FILES = 15;

describe('the order path from checkout to PAID and its invoice', () => {
  const sources = readSources(repositoryRoot);

  it('should find every hop in the code by its name', () => {
    expect(missingHops(ORDER_PATH, sources)).toEqual([]);
  });

  it(`should cross at most ${MAX_FILES} files`, () => {
    expect(filesOf(ORDER_PATH).length).toBeLessThanOrEqual(MAX_FILES);
    expect(Object.keys(ORDER_PATH_FILES).sort()).toEqual(filesOf(ORDER_PATH).sort());
  });

  it('should be written in the orders README as it is here', () => {
    const readme = readFileSync(join(repositoryRoot, 'src/services/orders/README.md'), 'utf8');
    const block = /<!-- order-path:begin -->\n([\s\S]*?)\n<!-- order-path:end -->/.exec(readme)?.[1];
    expect(block).toBe(renderWalk(ORDER_PATH, ORDER_PATH_FILES));
  });
});

describe(missingHops.name, () => {
  const file = (path: string, text: string) => ({ path, text });
  const sources = [
    file('src/a.ts', `import { B } from './b';\nclass A { go() { this.b.run(); this.events.emit('x.done'); } }`),
    file('src/b.ts', `export class B {\n  run() {}\n}`),
    file('src/c.ts', `class C {\n  @OnDomainEvent('x.done')\n  async on() {}\n}`),
    file('src/events/domain-events.ts', 'export class DomainEvents {}'),
  ];

  it('should accept a call and an event found by their names, and refuse hops the code does not show', () => {
    const call: Hop = { from: 'src/a.ts', to: 'src/b.ts', via: 'call', name: 'B.run', what: '' };
    const event: Hop = { from: 'src/a.ts', to: 'src/c.ts', via: 'event', name: 'x.done', what: '' };
    expect(missingHops([call], sources)).toEqual([]);
    expect(missingHops([{ ...call, name: 'B.stop' }], sources)).toEqual([
      'src/a.ts → src/b.ts (call B.stop): B has no stop',
    ]);
    expect(missingHops([{ ...call, from: 'src/c.ts' }], sources)).toEqual([
      'src/c.ts → src/b.ts (call B.run): the source never calls .run(',
    ]);
    expect(missingHops([event], sources)).toEqual([
      'src/a.ts → src/c.ts (event x.done): the source does not use DomainEvents',
    ]);
  });
});
