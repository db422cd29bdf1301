import { posix } from 'node:path';
import * as ts from 'typescript';
import { ownerOf, SourceFile } from './model-ownership';

/**
 * The framework layers of the app and what each may import from `src/`: they sit below every feature module, so no
 * import may run from them up into one (types included: a type import is an arrow in the design all the same).
 * `shared-state` is infrastructure (the Redis connection that the bean rate limit counts in), not a feature.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  config: ['config'],
  common: ['common', 'config'],
  bean: ['bean', 'common', 'config', 'shared-state'],
};

export interface LayerViolation {
  file: string;
  line: number;
  detail: string;
}

/** Every import, re-export or `import()` of a file of `src/` that its layer may not use. */
export function findLayerViolations(files: SourceFile[]): LayerViolation[] {
  return files.flatMap((file) => {
    const allowed = ALLOWED_IMPORTS[ownerOf(file.path)];
    if (!allowed) return [];
    return importsOf(file).flatMap(({ specifier, line }) => {
      const target = resolveInSrc(file.path, specifier);
      if (target === undefined || allowed.includes(ownerOf(target))) return [];
      return [{ file: file.path, line, detail: `${ownerOf(file.path)} imports ${ownerOf(target)} (${specifier})` }];
    });
  });
}

/** The module specifiers of a file with their lines: import and export declarations, `import()` and `require()`. */
export function importsOf(file: SourceFile): { specifier: string; line: number }[] {
  const ast = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined): void => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    found.push({ specifier: literal.text, line: ast.getLineAndCharacterOfPosition(node.getStart(ast)).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression);
    }
    const isDynamic =
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'));
    if (isDynamic) add(node, node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

/** The repository path a relative specifier names (`src/...`), undefined for packages. */
function resolveInSrc(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), specifier));
}
