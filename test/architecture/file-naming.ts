import * as ts from 'typescript';
import { SourceFile } from './model-ownership';

/**
 * The file-naming convention for injectables (issue 26): `*.service.ts` is a bean's file and only that. A class
 * decorated `@Bean(...)` lives in a `*.service.ts` file and is named `<Something>Service`; every `*.service.ts` holds
 * such a class; every other provider is named for what it does, in file and class, without a `Service` suffix
 * (`OrderExpiry` in `order-expiry.ts`). Nest's own kinds keep Nest's suffixes (`.module`, `.controller`, ...), which
 * this check leaves alone.
 */

export interface NamingViolation {
  file: string;
  line: number;
  rule: 'bean-outside-service-file' | 'bean-not-named-service' | 'service-file-without-bean' | 'service-not-a-bean';
  detail: string;
}

interface DecoratedClass {
  name: string;
  line: number;
  decorators: Set<string>;
}

const SERVICE_FILE = /\.service\.ts$/;
const SERVICE_NAME = /Service$/;

/** Every break of the convention in `files` (the sources of `src/`). */
export function findNamingViolations(files: SourceFile[]): NamingViolation[] {
  return files.flatMap((file) => {
    const classes = decoratedClasses(file);
    const beans = classes.filter((c) => c.decorators.has('Bean'));
    const others = classes.filter((c) => !c.decorators.has('Bean') && c.decorators.has('Injectable'));
    return [
      ...beans.flatMap((bean) => beanViolations(file.path, bean)),
      ...others.filter((c) => SERVICE_NAME.test(c.name)).map((c) => serviceNotABean(file.path, c)),
      ...(SERVICE_FILE.test(file.path) && beans.length === 0 ? [serviceFileWithoutBean(file.path)] : []),
    ];
  });
}

function beanViolations(file: string, bean: DecoratedClass): NamingViolation[] {
  const found: NamingViolation[] = [];
  if (!SERVICE_FILE.test(file)) {
    const detail = `bean ${bean.name} is not in a *.service.ts file`;
    found.push({ file, line: bean.line, rule: 'bean-outside-service-file', detail });
  }
  if (!SERVICE_NAME.test(bean.name)) {
    const detail = `bean ${bean.name} is not named <Something>Service`;
    found.push({ file, line: bean.line, rule: 'bean-not-named-service', detail });
  }
  return found;
}

function serviceNotABean(file: string, injectable: DecoratedClass): NamingViolation {
  const detail = `${injectable.name} is not a bean: name it for what it does, without the Service suffix`;
  return { file, line: injectable.line, rule: 'service-not-a-bean', detail };
}

function serviceFileWithoutBean(file: string): NamingViolation {
  const detail = 'a *.service.ts file holds no @Bean class: name the file for what its provider does';
  return { file, line: 1, rule: 'service-file-without-bean', detail };
}

/** The named classes of a file with the names of their decorators (`Bean` for `@Bean('x')`). */
function decoratedClasses(file: SourceFile): DecoratedClass[] {
  const ast = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: DecoratedClass[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && node.name) {
      const line = ast.getLineAndCharacterOfPosition(node.name.getStart(ast)).line + 1;
      found.push({ name: node.name.text, line, decorators: decoratorNames(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

function decoratorNames(node: ts.ClassDeclaration): Set<string> {
  const names = (ts.getDecorators(node) ?? []).map(({ expression }) => {
    const callee = ts.isCallExpression(expression) ? expression.expression : expression;
    return ts.isIdentifier(callee) ? callee.text : '';
  });
  return new Set(names.filter(Boolean));
}
