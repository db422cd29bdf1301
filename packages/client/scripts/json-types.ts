import ts from 'typescript';

/**
 * Which side of the wire a type describes. `output`: what `JSON.stringify` makes of a returned value (`toJSON` is
 * followed, so `Date` and `ObjectId` become `string`; methods and `undefined` vanish). `input`: what a client sends
 * for a DTO parameter (properties with an initialiser are optional: the server fills in the default).
 */
export type Side = 'input' | 'output';

interface NamedDeclaration {
  name: string;
  text: string;
}

const MAX_DEPTH = 12;
const BYTE_ARRAYS = new Set(['Buffer', 'Uint8Array']);
const EMPTY_IN_JSON = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp']);

/**
 * Writes TypeScript types of the server as standalone declarations of their JSON form: named interfaces and enums
 * become generated declarations (so nothing imports the server's sources), anonymous types are inlined.
 */
export class JsonTypeWriter {
  private readonly names = new Map<string, string>();
  private readonly takenNames = new Set<string>();
  private readonly declarations: NamedDeclaration[] = [];
  private readonly inlining = new Set<ts.Type>();

  constructor(readonly checker: ts.TypeChecker) {}

  /** The generated declarations, in the order they were first referenced. */
  declarationsText(): string {
    return this.declarations.map((d) => d.text).join('\n\n');
  }

  /** A returned value as the unified call answers it: nothing is `null`, bytes are base64 text. */
  result(type: ts.Type): string {
    const awaited = this.checker.getAwaitedType(type) ?? type;
    if (awaited.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return 'null';
    if (BYTE_ARRAYS.has(awaited.getSymbol()?.getName() ?? '')) return 'string';
    if (awaited.isUnion() && awaited.types.some(isNothing)) {
      const rest = awaited.types.filter((member) => !isNothing(member));
      return joinUnion([...rest.map((member) => this.write(member, 'output', 0)), 'null']);
    }
    return this.write(awaited, 'output', 0);
  }

  write(type: ts.Type, side: Side, depth: number): string {
    if (depth > MAX_DEPTH) return 'unknown';
    const primitive = primitiveText(type);
    if (primitive !== undefined) return primitive;
    if (type.flags & ts.TypeFlags.TypeParameter) {
      const constraint = this.checker.getBaseConstraintOfType(type);
      return constraint && constraint !== type ? this.write(constraint, side, depth + 1) : 'unknown';
    }
    if (type.isUnion()) return this.union(type, side, depth);
    if (type.flags & ts.TypeFlags.Object || type.isIntersection()) return this.object(type, side, depth);
    return 'unknown';
  }

  private union(type: ts.UnionType, side: Side, depth: number): string {
    const members = type.types.map((member) => (isNothing(member) ? 'null' : this.write(member, side, depth + 1)));
    return joinUnion(members);
  }

  private object(type: ts.Type, side: Side, depth: number): string {
    const symbolName = type.getSymbol()?.getName() ?? '';
    const toJson = side === 'output' ? this.toJsonResult(type) : undefined;
    if (toJson) return this.write(toJson, side, depth + 1);
    if (EMPTY_IN_JSON.has(symbolName)) return 'Record<string, never>';
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      return `${this.parenthesised(element, side, depth)}[]`;
    }
    if (this.checker.isTupleType(type)) {
      const elements = this.checker.getTypeArguments(type as ts.TypeReference);
      return `[${elements.map((element) => this.write(element, side, depth + 1)).join(', ')}]`;
    }
    if (isFunctionOnly(type) || isLibraryClass(type)) return 'unknown';
    const namedSymbol = nameableSymbol(type);
    if (namedSymbol) {
      return this.named(namedSymbol, side, () => this.interfaceText(namedSymbol, type, side));
    }
    if (this.inlining.has(type)) return 'unknown';
    this.inlining.add(type);
    try {
      return this.members(type, side, depth);
    } finally {
      this.inlining.delete(type);
    }
  }

  private parenthesised(type: ts.Type, side: Side, depth: number): string {
    const text = this.write(type, side, depth + 1);
    return /^[\w.<>[\]]+$/.test(text) ? text : `(${text})`;
  }

  /** `{ a: T; b?: U }` for the JSON-visible properties of `type` (data properties, no methods or accessors). */
  private members(type: ts.Type, side: Side, depth: number): string {
    const indent = '  '.repeat(depth + 1);
    const lines: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const line = this.member(property, side, depth);
      if (line) lines.push(`${this.docOf(property, indent)}${indent}${line}`);
    }
    for (const index of this.checker.getIndexInfosOfType(type)) {
      const key = this.write(index.keyType, side, depth + 1);
      lines.push(`${indent}[key: ${key}]: ${this.write(index.type, side, depth + 1)};`);
    }
    if (lines.length === 0) return '{}';
    return `{\n${lines.join('\n')}\n${'  '.repeat(depth)}}`;
  }

  private member(property: ts.Symbol, side: Side, depth: number): string | undefined {
    if (!isDataProperty(property)) return undefined;
    const type = this.checker.getTypeOfSymbol(property);
    if (isFunctionOnly(type)) return undefined;
    const members = type.isUnion() ? type.types : [type];
    const present = members.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (present.length === 0) return undefined;
    const optional = present.length < members.length || isOptional(property, side);
    const text = joinUnion(present.map((member) => (isNothing(member) ? 'null' : this.write(member, side, depth + 1))));
    return `${propertyName(property.getName())}${optional ? '?' : ''}: ${text};`;
  }

  /** The return type of a `toJSON()` method, which `JSON.stringify` calls instead of walking the object. */
  private toJsonResult(type: ts.Type): ts.Type | undefined {
    const method = type.getProperty('toJSON');
    if (!method) return undefined;
    const [signature] = this.checker.getSignaturesOfType(this.checker.getTypeOfSymbol(method), ts.SignatureKind.Call);
    if (!signature) return undefined;
    const result = signature.getReturnType();
    return result.flags & ts.TypeFlags.Any ? undefined : result;
  }

  /** Declares `symbol` once per side under a unique name and answers that name. */
  private named(symbol: ts.Symbol, side: Side, body: () => string): string {
    const key = `${side}:${symbolKey(symbol)}`;
    const existing = this.names.get(key);
    if (existing) return existing;
    const name = this.uniqueName(symbol.getName(), side);
    this.names.set(key, name);
    const declaration: NamedDeclaration = { name, text: '' };
    this.declarations.push(declaration);
    declaration.text = body().replace('%NAME%', name);
    return name;
  }

  private uniqueName(base: string, side: Side): string {
    const candidates = [base, side === 'input' ? `${base}Input` : `${base}Output`];
    for (let n = 2; ; n++) {
      const name = candidates.shift() ?? `${base}${n}`;
      if (!this.takenNames.has(name)) {
        this.takenNames.add(name);
        return name;
      }
    }
  }

  private interfaceText(symbol: ts.Symbol, type: ts.Type, side: Side): string {
    return `${this.docOf(symbol)}export interface %NAME% ${this.members(type, side, 0)}`;
  }

  /** The symbol's doc comment as a JSDoc block (with `extraLines` below it), or nothing. */
  docOf(symbol: ts.Symbol, indent = '', extraLines: string[] = []): string {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    const lines = [...(text ? text.split('\n') : []), ...(text && extraLines.length ? [''] : []), ...extraLines];
    if (lines.length === 0) return '';
    return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
  }
}

function primitiveText(type: ts.Type): string | undefined {
  const { flags } = type;
  if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
  if (type.isStringLiteral()) return JSON.stringify(type.value);
  if (type.isNumberLiteral()) return String(type.value);
  if (flags & ts.TypeFlags.BooleanLiteral) return (type as unknown as { intrinsicName: string }).intrinsicName;
  if (flags & ts.TypeFlags.String || flags & ts.TypeFlags.TemplateLiteral) return 'string';
  if (flags & ts.TypeFlags.Number) return 'number';
  if (flags & ts.TypeFlags.Boolean) return 'boolean';
  if (flags & ts.TypeFlags.Null) return 'null';
  if (flags & ts.TypeFlags.Never) return 'never';
  if (flags & (ts.TypeFlags.BigInt | ts.TypeFlags.ESSymbol | ts.TypeFlags.NonPrimitive)) return 'unknown';
  return undefined;
}

function isNothing(type: ts.Type): boolean {
  return (type.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;
}

/** `true | false` is written `boolean`; duplicates (e.g. two `unknown`) collapse. */
function joinUnion(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes('unknown')) return 'unknown';
  const booleans = unique.includes('true') && unique.includes('false');
  const rest = booleans ? unique.filter((member) => member !== 'true' && member !== 'false') : unique;
  const all = booleans ? [...rest, 'boolean'] : rest;
  return all.map((member) => (member.includes('=>') ? `(${member})` : member)).join(' | ');
}

function isFunctionOnly(type: ts.Type): boolean {
  return type.getCallSignatures().length > 0 && type.getProperties().length === 0;
}

/** Interfaces, classes and aliases of object types without type arguments get a generated name. */
function nameableSymbol(type: ts.Type): ts.Symbol | undefined {
  if (type.aliasSymbol && !type.aliasTypeArguments?.length && !type.isIntersection()) return type.aliasSymbol;
  const symbol = type.getSymbol();
  if (!symbol || !(symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class))) return undefined;
  const typeArguments = (type as ts.TypeReference).typeArguments ?? [];
  return typeArguments.length === 0 && !isLibrarySymbol(symbol) ? symbol : undefined;
}

/** A class or interface of a dependency (a mongoose document, a stream): its JSON form is not ours to describe. */
function isLibraryClass(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  const isClassLike = !!symbol && (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) !== 0;
  return isClassLike && isLibrarySymbol(symbol);
}

function isLibrarySymbol(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => d.getSourceFile().fileName.includes('/node_modules/'));
}

function symbolKey(symbol: ts.Symbol): string {
  const declaration = symbol.declarations?.[0];
  return declaration ? `${declaration.getSourceFile().fileName}:${declaration.pos}` : symbol.getName();
}

function isDataProperty(property: ts.Symbol): boolean {
  if (!(property.flags & ts.SymbolFlags.Property) || property.getName().startsWith('__@')) return false;
  return !(property.declarations ?? []).some((d) => {
    const modifiers = ts.canHaveModifiers(d) ? (ts.getModifiers(d) ?? []) : [];
    return modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
  });
}

function isOptional(property: ts.Symbol, side: Side): boolean {
  if (property.flags & ts.SymbolFlags.Optional) return true;
  if (side === 'output') return false;
  return (property.declarations ?? []).some((d) => ts.isPropertyDeclaration(d) && d.initializer !== undefined);
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}
