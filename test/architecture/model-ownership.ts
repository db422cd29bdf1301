import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * Checks that every Mongoose model is used only by the module that owns it (issue 16). A module is a folder
 * `src/services/<name>`, or a top-level folder `src/<name>` (`auth`, `seed`, `sites`, ...). A file breaks the rule when
 * it imports another module's `*.schema.ts`, or names another module's model in `@InjectModel(X.name)` or in
 * `MongooseModule.forFeature([{ name: X.name, ... }])`. Other modules go through the owner's exported port instead.
 */

export interface SourceFile {
  /** Repository-relative, with forward slashes: `src/services/orders/order.repository.ts`. */
  path: string;
  text: string;
}

export interface Violation {
  file: string;
  line: number;
  rule: 'schema-import' | 'foreign-model';
  detail: string;
}

/**
 * The content store is one set of collections (pages, routes, containers) that the content modules share by
 * design; it is the single exception, and only for these modules.
 */
export const SHARED_CONTENT_STORE = 'services/content';
export const CONTENT_STORE_SHARERS: ReadonlySet<string> = new Set([
  'services/pages',
  'services/router',
  'services/sitemap',
  'services/content-containers',
]);

/** `services/orders` for `src/services/orders/...`, `auth` for `src/auth/...`, `app` for files directly in src. */
export function ownerOf(path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'src') return parts[0];
  if (parts[1] === 'services' && parts.length > 3) return `services/${parts[2]}`;
  return parts.length > 2 ? parts[1] : 'app';
}

function mayUse(user: string, owner: string): boolean {
  return user === owner || (owner === SHARED_CONTENT_STORE && CONTENT_STORE_SHARERS.has(user));
}

export function findViolations(files: SourceFile[]): Violation[] {
  const parsed = files.map((file) => ({ ...file, ast: parse(file) }));
  const modelOwners = new Map<string, string>();
  for (const file of parsed.filter((f) => f.path.endsWith('.schema.ts'))) {
    for (const name of schemaClassNames(file.ast)) modelOwners.set(name, ownerOf(file.path));
  }
  return parsed.flatMap((file) => [...schemaImports(file, file.ast), ...foreignModels(file, file.ast, modelOwners)]);
}

function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function schemaClassNames(ast: ts.SourceFile): string[] {
  return ast.statements
    .filter(ts.isClassDeclaration)
    .filter((node) => (ts.getDecorators(node) ?? []).some((d) => calleeName(d.expression) === 'Schema'))
    .flatMap((node) => (node.name ? [node.name.text] : []));
}

/** Imports and re-exports of a relative `*.schema` path owned by another module. */
function schemaImports(file: SourceFile, ast: ts.SourceFile): Violation[] {
  const user = ownerOf(file.path);
  const found: Violation[] = [];
  for (const statement of ast.statements) {
    const specifier = moduleSpecifier(statement);
    if (!specifier?.startsWith('.') || !/\.schema(\.ts)?$/.test(specifier)) continue;
    const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
    const owner = ownerOf(target);
    if (!mayUse(user, owner)) {
      found.push({
        ...at(file, ast, statement),
        rule: 'schema-import',
        detail: `${user} imports ${owner}'s ${specifier}`,
      });
    }
  }
  return found;
}

function moduleSpecifier(statement: ts.Statement): string | undefined {
  const isImportOrExport = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement);
  const specifier = isImportOrExport ? statement.moduleSpecifier : undefined;
  return specifier && ts.isStringLiteral(specifier) ? specifier.text : undefined;
}

/** `@InjectModel(X.name)` and `forFeature([{ name: X.name }])` where model X belongs to another module. */
function foreignModels(file: SourceFile, ast: ts.SourceFile, modelOwners: Map<string, string>): Violation[] {
  const user = ownerOf(file.path);
  const found: Violation[] = [];
  const check = (node: ts.Node, expression: ts.Expression, how: string) => {
    const model = modelName(expression);
    const owner = model === undefined ? undefined : modelOwners.get(model);
    if (owner !== undefined && !mayUse(user, owner)) {
      found.push({ ...at(file, ast, node), rule: 'foreign-model', detail: `${user} ${how} ${owner}'s model ${model}` });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && calleeName(node) === 'InjectModel' && node.arguments[0]) {
      check(node, node.arguments[0], 'injects');
    }
    if (ts.isCallExpression(node) && calleeName(node) === 'forFeature' && node.arguments[0]) {
      for (const name of registeredNames(node.arguments[0])) check(node, name, 'registers');
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return found;
}

function registeredNames(argument: ts.Expression): ts.Expression[] {
  if (!ts.isArrayLiteralExpression(argument)) return [];
  return argument.elements.filter(ts.isObjectLiteralExpression).flatMap((entry) =>
    entry.properties
      .filter(ts.isPropertyAssignment)
      .filter((property) => ts.isIdentifier(property.name) && property.name.text === 'name')
      .map((property) => property.initializer),
  );
}

/** `X` for `X.name`, the text of a string literal, else undefined. */
function modelName(expression: ts.Expression): string | undefined {
  if (ts.isStringLiteralLike(expression)) return expression.text;
  const isDotName = ts.isPropertyAccessExpression(expression) && expression.name.text === 'name';
  return isDotName && ts.isIdentifier(expression.expression) ? expression.expression.text : undefined;
}

function calleeName(expression: ts.Expression): string | undefined {
  if (!ts.isCallExpression(expression)) return undefined;
  const callee = expression.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  return ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
}

function at(file: SourceFile, ast: ts.SourceFile, node: ts.Node): Pick<Violation, 'file' | 'line'> {
  return { file: file.path, line: ast.getLineAndCharacterOfPosition(node.getStart(ast)).line + 1 };
}

/** Every TypeScript source under `src` of the repository at `root` (tests beside the code excluded). */
export function readSources(root: string, folder = join(root, 'src')): SourceFile[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return readSources(root, path);
    if (!/\.tsx?$/.test(entry.name) || entry.name.endsWith('.spec.ts')) return [];
    return [{ path: relative(root, path).split(/[\\/]/).join('/'), text: readFileSync(path, 'utf8') }];
  });
}

export const repositoryRoot = join(dirname(__filename), '..', '..');
