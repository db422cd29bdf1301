import * as ts from 'typescript';
import { SourceFile } from './model-ownership';

/**
 * Finds, for every Mongoose model (one per collection), the files that write it (issue 26: one writer per
 * collection). A model reaches a file through `@InjectModel(X.name)` on a constructor parameter, kept as a property
 * (`this.orders`) or used in the constructor (`orders`). The file writes collection X when it
 *
 * - calls a write method on that model or on its driver collection (`this.orders.updateOne(...)`,
 *   `this.orders.collection.bulkWrite(...)`);
 * - makes a document of it (`new this.carts(...)`, made to be saved);
 * - calls `save()` on a document variable: of the model it was read from (`const cart = await this.carts.findOne()`),
 *   and of every model the file injects when that is not to be seen (a method's parameter);
 * - hands the model to a helper that writes with it ({@link WRITING_HELPERS}).
 *
 * What the syntax alone cannot follow (a model returned by a getter and written by the caller, a document passed to
 * another file that saves it) is not found; the reviewer's eye covers those.
 */

/** Model and driver-collection methods that change documents. */
export const WRITE_METHODS: ReadonlySet<string> = new Set([
  'create',
  'insertMany',
  'insertOne',
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'findByIdAndDelete',
  'findOneAndRemove',
  'findByIdAndRemove',
  'deleteOne',
  'deleteMany',
  'bulkWrite',
  'bulkSave',
]);

/** Functions that write with the model they are given. */
export const WRITING_HELPERS: ReadonlySet<string> = new Set([
  // src/database/insert-missing.ts: inserts the fixed records a collection lacks.
  'insertMissing',
  // RepositoryRegistry.register: SAVE and DELETE of the model over STOMP `/request/repository`.
  'register',
]);

/** Model name (the schema class, `Order`) → the files that write it, sorted. */
export type WritersByModel = Map<string, string[]>;

export function findWriters(files: SourceFile[]): WritersByModel {
  const writers = new Map<string, Set<string>>();
  for (const file of files) {
    for (const model of modelsWrittenBy(parse(file))) {
      const set = writers.get(model) ?? new Set<string>();
      writers.set(model, set.add(file.path));
    }
  }
  return new Map([...writers].map(([model, paths]) => [model, [...paths].sort()]));
}

function parse(file: SourceFile): ts.SourceFile {
  return ts.createSourceFile(file.path, file.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

/** The models one file writes. */
function modelsWrittenBy(ast: ts.SourceFile): Set<string> {
  const injected = injectedModels(ast);
  const written = new Set<string>();
  if (injected.size === 0) return written;
  const visit = (node: ts.Node): void => {
    for (const model of writesAt(node, injected)) written.add(model);
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return written;
}

/** Parameter name → model name, for every `@InjectModel(X.name)` (or `'X'`) parameter of the file. */
function injectedModels(ast: ts.SourceFile): Map<string, string> {
  const injected = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isParameter(node) && ts.isIdentifier(node.name)) {
      const model = injectedModelOf(node);
      if (model) injected.set(node.name.text, model);
    }
    ts.forEachChild(node, visit);
  };
  visit(ast);
  return injected;
}

function injectedModelOf(parameter: ts.ParameterDeclaration): string | undefined {
  for (const decorator of ts.getDecorators(parameter) ?? []) {
    const call = decorator.expression;
    if (!ts.isCallExpression(call) || !ts.isIdentifier(call.expression)) continue;
    if (call.expression.text === 'InjectModel' && call.arguments[0]) return modelName(call.arguments[0]);
  }
  return undefined;
}

/** `X` for `X.name`, the text of a string literal. */
function modelName(expression: ts.Expression): string | undefined {
  if (ts.isStringLiteralLike(expression)) return expression.text;
  const isDotName = ts.isPropertyAccessExpression(expression) && expression.name.text === 'name';
  return isDotName && ts.isIdentifier(expression.expression) ? expression.expression.text : undefined;
}

/** The model `this.p` or `p` refers to when `p` is an injected model parameter. */
function modelRef(expression: ts.Expression, injected: Map<string, string>): string | undefined {
  if (ts.isIdentifier(expression)) return injected.get(expression.text);
  const isThisProperty =
    ts.isPropertyAccessExpression(expression) && expression.expression.kind === ts.SyntaxKind.ThisKeyword;
  return isThisProperty ? injected.get(expression.name.text) : undefined;
}

/** The models a node writes, by the rules of this file's doc comment. */
function writesAt(node: ts.Node, injected: Map<string, string>): string[] {
  if (ts.isNewExpression(node)) return optional(modelRef(node.expression, injected));
  if (!ts.isCallExpression(node)) return [];
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee) && WRITE_METHODS.has(callee.name.text)) {
    return optional(modelRef(collectionOwner(callee.expression), injected));
  }
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'save')
    return savedModels(callee.expression, injected);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  if (!WRITING_HELPERS.has(name)) return [];
  return node.arguments.flatMap((argument) => optional(modelRef(argument, injected)));
}

/** `this.orders` for `this.orders.collection` (the driver's collection is written the same). */
function collectionOwner(expression: ts.Expression): ts.Expression {
  const isCollection = ts.isPropertyAccessExpression(expression) && expression.name.text === 'collection';
  return isCollection ? expression.expression : expression;
}

/**
 * The model a saved document (a variable) was read from or made of, else every injected model (it cannot be told
 * apart); nothing for `this.service.save(...)`, a call to another class.
 */
function savedModels(receiver: ts.Expression, injected: Map<string, string>): string[] {
  if (!ts.isIdentifier(receiver)) return [];
  const initializer = initializerOf(receiver);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isExpression(node)) for (const model of optional(modelRef(node, injected))) found.add(model);
    ts.forEachChild(node, visit);
  };
  if (initializer) visit(initializer);
  return found.size > 0 ? [...found] : [...new Set(injected.values())];
}

/** The initializer of the nearest `const|let name = ...` before `identifier` in its function. */
function initializerOf(identifier: ts.Identifier): ts.Expression | undefined {
  let scope: ts.Node | undefined = identifier.parent;
  while (scope && !ts.isFunctionLike(scope)) scope = scope.parent;
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    const declares = ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === identifier.text;
    if (declares && node.initializer && node.getStart() < identifier.getStart()) found = node.initializer;
    ts.forEachChild(node, visit);
  };
  if (scope) visit(scope);
  return found;
}

function optional<T>(value: T | undefined): T[] {
  return value === undefined ? [] : [value];
}
