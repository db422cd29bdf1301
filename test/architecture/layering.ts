import { posix } from 'node:path';
import * as ts from 'typescript';
import { ownerOf, SourceFile } from './model-ownership';

/**
 * The lower layers of the app and what each may import from `src/`: no import may run from one of them up into a
 * module above it (types included: a type import is an arrow in the design all the same). `config`, `common` and
 * `bean` are the framework under every feature module; `shared-state` is infrastructure (the Redis connection that
 * the bean rate limit counts in); above them `auth`, `sites` and `realtime` (STOMP), which import no feature module
 * (`src/services/*`): a feature that must take part in their work provides an abstraction they declare, or listens
 * to a domain event (`events`, the bus) they emit.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  config: ['config'],
  common: ['common', 'config'],
  'shared-state': ['shared-state', 'common', 'config'],
  bean: ['bean', 'common', 'config', 'shared-state'],
  auth: ['auth', 'common', 'config', 'database', 'events', 'mail', 'shared-state'],
  sites: ['sites', 'common', 'config'],
  realtime: ['realtime', 'common', 'config', 'bean', 'auth', 'sites'],
};

export interface LayerViolation {
  file: string;
  line: number;
  detail: string;
}

/** Every import, re-export or `import()` of a file of `src/` that its layer may not use. */
export function findLayerViolations(files: SourceFile[]): LayerViolation[] {
  const paths = new Set(files.map((file) => file.path));
  return files.flatMap((file) => {
    const allowed = ALLOWED_IMPORTS[ownerOf(file.path)];
    if (!allowed) return [];
    return importsOf(file).flatMap(({ specifier, line }) => {
      const target = resolveInSrc(file.path, specifier);
      if (target === undefined) return [];
      const owner = targetOwner(target, paths);
      if (allowed.includes(owner)) return [];
      return [{ file: file.path, line, detail: `${ownerOf(file.path)} imports ${owner} (${specifier})` }];
    });
  });
}

/** The owner of an import's target: `src/config` is the index of the config folder, unless `src/config.ts` exists. */
function targetOwner(target: string, paths: ReadonlySet<string>): string {
  const [root, name, ...rest] = target.split('/');
  const isFolderIndex = root === 'src' && name !== undefined && rest.length === 0 && !paths.has(`${target}.ts`);
  return isFolderIndex ? name : ownerOf(target);
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
