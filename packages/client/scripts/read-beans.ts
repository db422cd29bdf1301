import path from 'node:path';
import ts from 'typescript';

/** A parameter type as `@Exposed` declares it: a scalar name or a DTO class (`MapOf`). */
export type DeclaredParam = { scalar: string } | { dto: ts.Type; dtoName: string };

export interface ExposedMethod {
  /** The name clients call (`@Exposed({ name })` or the method name). */
  name: string;
  methodName: string;
  role: string;
  params: DeclaredParam[];
  signature: ts.Signature;
  symbol: ts.Symbol;
}

export interface BeanDeclaration {
  id: string;
  role: string;
  className: string;
  symbol: ts.Symbol;
  methods: ExposedMethod[];
  fileName: string;
}

/**
 * Reads every `@Bean` class of the program and its `@Exposed` methods statically, the way the registry
 * (src/bean/bean-registry.ts) reads them at start-up: decorators are recognised by the symbol they resolve to,
 * so renamed imports and re-exports still count; their arguments are read from their (literal) types, so
 * constants and enum members work. Anything that cannot be read statically is an error, never a guess.
 */
export class BeanReader {
  private readonly checker: ts.TypeChecker;
  private readonly beanDecorator: ts.Symbol;
  private readonly exposedDecorator: ts.Symbol;

  constructor(
    private readonly program: ts.Program,
    beanModuleDir: string,
  ) {
    this.checker = program.getTypeChecker();
    // The bean module's public entry point: where inside the module the decorators live does not matter.
    const entry = path.join(beanModuleDir, 'index.ts');
    this.beanDecorator = this.resolved(exportedSymbol(program, entry, 'Bean'));
    this.exposedDecorator = this.resolved(exportedSymbol(program, entry, 'Exposed'));
  }

  read(isBeanSource: (fileName: string) => boolean): BeanDeclaration[] {
    const beans: BeanDeclaration[] = [];
    for (const sourceFile of this.program.getSourceFiles()) {
      if (!isBeanSource(sourceFile.fileName)) continue;
      sourceFile.forEachChild(
        function visit(this: BeanReader, node: ts.Node): void {
          if (ts.isClassDeclaration(node)) {
            const bean = this.beanOf(node);
            if (bean) beans.push(bean);
          }
          node.forEachChild(visit.bind(this));
        }.bind(this),
      );
    }
    return beans.sort((a, b) => a.id.localeCompare(b.id));
  }

  private beanOf(declaration: ts.ClassDeclaration): BeanDeclaration | undefined {
    const call = this.decoratorCall(declaration, this.beanDecorator);
    if (!call) return undefined;
    const [idArgument, roleArgument] = call.arguments;
    const id = this.literal(idArgument, 'bean id');
    const role = this.literal(roleArgument, 'bean role');
    const symbol = this.checker.getSymbolAtLocation(declaration.name!)!;
    const instanceType = this.checker.getDeclaredTypeOfSymbol(symbol);
    const properties = this.checker.getPropertiesOfType(instanceType);
    const methods = properties.flatMap((property) => this.exposedOf(property, role));
    return { id, role, className: symbol.getName(), symbol, methods, fileName: declaration.getSourceFile().fileName };
  }

  private exposedOf(property: ts.Symbol, beanRole: string): ExposedMethod[] {
    return (property.declarations ?? []).filter(ts.isMethodDeclaration).flatMap((method) => {
      const call = this.decoratorCall(method, this.exposedDecorator);
      if (!call) return [];
      const [paramsArgument, optionsArgument] = call.arguments;
      const options = optionsArgument ? this.options(optionsArgument) : {};
      const signature = this.checker.getSignatureFromDeclaration(method)!;
      return [
        {
          name: options.name ?? property.getName(),
          methodName: property.getName(),
          role: options.role ?? beanRole,
          params: paramsArgument ? this.params(paramsArgument) : [],
          signature,
          symbol: property,
        },
      ];
    });
  }

  private params(expression: ts.Expression): DeclaredParam[] {
    if (!ts.isArrayLiteralExpression(expression)) {
      throw this.unreadable(expression, 'the parameter list must be an array literal');
    }
    return expression.elements.map((element) => {
      const type = this.checker.getTypeAtLocation(element);
      if (type.isStringLiteral()) return { scalar: type.value };
      const dto = type.getProperty('dto');
      const [construct] = dto ? this.checker.getTypeOfSymbol(dto).getConstructSignatures() : [];
      if (!construct) throw this.unreadable(element, 'expected a parameter type name or MapOf(Dto)');
      const dtoType = construct.getReturnType();
      return { dto: dtoType, dtoName: dtoType.getSymbol()?.getName() ?? 'object' };
    });
  }

  private options(expression: ts.Expression): { name?: string; role?: string } {
    if (!ts.isObjectLiteralExpression(expression)) {
      throw this.unreadable(expression, 'options must be an object literal');
    }
    const options: { name?: string; role?: string } = {};
    for (const property of expression.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) {
        throw this.unreadable(property, 'options must be plain `key: value` properties');
      }
      const key = property.name.text;
      if (key === 'name' || key === 'role') options[key] = this.literal(property.initializer, key);
    }
    return options;
  }

  /** The call of `decorator` among the node's decorators, recognised by the symbol its callee resolves to. */
  private decoratorCall(node: ts.HasDecorators, decorator: ts.Symbol): ts.CallExpression | undefined {
    for (const candidate of ts.getDecorators(node) ?? []) {
      if (!ts.isCallExpression(candidate.expression)) continue;
      const callee = this.checker.getSymbolAtLocation(candidate.expression.expression);
      if (callee && this.resolved(callee) === decorator) return candidate.expression;
    }
    return undefined;
  }

  private resolved(symbol: ts.Symbol): ts.Symbol {
    return symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
  }

  private literal(expression: ts.Expression | undefined, what: string): string {
    const type = expression && this.checker.getTypeAtLocation(expression);
    if (type?.isStringLiteral()) return type.value;
    throw this.unreadable(expression, `the ${what} must be a string literal, constant or string enum member`);
  }

  private unreadable(node: ts.Node | undefined, problem: string): Error {
    if (!node) return new Error(`Cannot read a bean declaration statically: ${problem}`);
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return new Error(`${path.relative(process.cwd(), file.fileName)}:${line + 1}: cannot read statically: ${problem}`);
  }
}

function exportedSymbol(program: ts.Program, fileName: string, name: string): ts.Symbol {
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(fileName);
  const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === name);
  if (!symbol) throw new Error(`${name} is not exported by ${fileName}`);
  return symbol;
}
