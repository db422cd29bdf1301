import path from 'node:path';
import ts from 'typescript';
import { JsonTypeWriter } from '../scripts/json-types';
import { BeanReader } from '../scripts/read-beans';

const ROOT = path.join(__dirname, '../../..');
const BEAN_DIR = path.join(ROOT, 'src/bean');

const fixtureFile = (name: string): string => path.join(ROOT, `src/services/generator-fixture-${name}.service.ts`);

/** One program of the real decorators and bean sources that exist only in memory (one per test, by name). */
function programOfFixtures(): ts.Program {
  const options: ts.CompilerOptions = {
    strict: true,
    experimentalDecorators: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const sources = new Map(Object.entries(FIXTURES).map(([name, source]) => [fixtureFile(name), HEADER + source]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => sources.has(path.resolve(fileName)) || fileExists(fileName);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const source = sources.get(path.resolve(fileName));
    return source !== undefined
      ? ts.createSourceFile(fileName, source, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest);
  };
  return ts.createProgram({ rootNames: [...sources.keys()], options, host });
}

const FIXTURES: Record<string, string> = {
  constants: `
      import { Bean as Service } from '../bean/bean.decorator';
      const ID = 'fixtureBean';
      class WidgetDto { name!: string; size = 1; }
      @Service(ID, Role.ADMIN)
      export class Fixture {
        @Exposed(['String', 'int']) put(key: string, count: number): void {}
        @Exposed([MapOf(WidgetDto)], { name: 'put', role: Role.GUEST }) putWidget(widget: WidgetDto): void {}
        notExposed(): void {}
      }`,
  dynamicId: `
      declare function makeId(): string;
      @Bean(makeId(), Role.ADMIN) export class Dynamic {}`,
  paramsConstant: `
      const PARAMS: ['String'] = ['String'];
      @Bean('b', Role.ADMIN) export class P { @Exposed(PARAMS) f(a: string): void {} }`,
  results: `
      interface Item { id: string; at: Date; note?: string; gone: undefined; size(): number; tags: string[] }
      @Bean('items', Role.GUEST) export class Items {
        @Exposed() async one(): Promise<Item> { throw new Error(); }
        @Exposed() async none(): Promise<void> {}
        @Exposed() maybe(): Item | undefined { return undefined; }
      }`,
  dtos: `
      class SizeDto { name!: string; size = 1; }
      @Bean('sizes', Role.GUEST) export class Sizes {
        @Exposed([MapOf(SizeDto)]) put(dto: SizeDto): SizeDto { return dto; }
      }`,
};

const HEADER = `
import { Bean, Exposed, MapOf } from '../bean';
import { Role } from '../common/principal';
`;

let program: ts.Program;

type Named = { name: string; methodName: string; role: string };
const pick = ({ name, methodName, role }: Named): Named => ({ name, methodName, role });

function read(name: string) {
  const beans = new BeanReader(program, BEAN_DIR).read((fileName) => path.resolve(fileName) === fixtureFile(name));
  return { beans, writer: new JsonTypeWriter(program.getTypeChecker()) };
}

describe('npm run sdk: reading beans and writing JSON types', () => {
  beforeAll(() => {
    program = programOfFixtures();
  });

  it('should read ids, roles, names and parameter types from constants, aliases and enum members', () => {
    const { beans } = read('constants');
    expect(beans).toHaveLength(1);
    expect(beans[0]).toMatchObject({ id: 'fixtureBean', role: 'ADMIN', className: 'Fixture' });
    const summary = beans[0].methods.map((m) => ({ ...pick(m), n: m.params.length }));
    expect(summary).toEqual([
      { name: 'put', methodName: 'put', role: 'ADMIN', n: 2 },
      { name: 'put', methodName: 'putWidget', role: 'GUEST', n: 1 },
    ]);
  });

  it('should refuse a bean id it cannot read statically, naming the place', () => {
    const located = /generator-fixture-dynamicId\.service\.ts:\d+: cannot read statically: the bean id/;
    expect(() => read('dynamicId')).toThrow(located);
  });

  it('should refuse a parameter list that is not an array literal', () => {
    expect(() => read('paramsConstant')).toThrow(/must be an array literal/);
  });

  it('should write the JSON form of results: toJSON followed, methods and undefined dropped, void as null', () => {
    const { beans, writer } = read('results');
    const results = beans[0].methods.map((method) => writer.result(method.signature.getReturnType()));
    expect(results).toEqual(['Item', 'null', 'Item | null']);
    const item = [
      'export interface Item {',
      '  id: string;',
      '  at: string;',
      '  note?: string;',
      '  tags: string[];',
      '}',
    ];
    expect(writer.declarationsText()).toBe(item.join('\n'));
  });

  it('should make DTO properties with an initialiser optional on input only', () => {
    const { beans, writer } = read('dtos');
    const [method] = beans[0].methods;
    const param = method.params[0];
    expect('dto' in param && writer.write(param.dto, 'input', 0)).toBe('SizeDto');
    expect(writer.result(method.signature.getReturnType())).toBe('SizeDtoOutput');
    expect(writer.declarationsText()).toContain('export interface SizeDto {\n  name: string;\n  size?: number;\n}');
    const output = 'export interface SizeDtoOutput {\n  name: string;\n  size: number;\n}';
    expect(writer.declarationsText()).toContain(output);
  });
});
