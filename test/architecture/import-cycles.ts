import { posix } from 'node:path';
import { importsOf } from './layering';
import { SourceFile } from './model-ownership';

/**
 * The import cycles among `files`: each a strongly connected set of files (Tarjan), sorted, type imports included.
 * Relative specifiers are resolved as TypeScript resolves them here: `x.ts` or `x.tsx`, else `x/index.ts(x)`.
 */
export function findImportCycles(files: SourceFile[]): string[][] {
  const graph = importGraph(files);
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
    }
    if (lowest.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

/** Each file of `files` with the files of `files` it imports (relative specifiers, as {@link findImportCycles} reads them). */
export function importGraph(files: SourceFile[]): Map<string, string[]> {
  const paths = new Set(files.map((file) => file.path));
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return undefined;
    const base = posix.normalize(posix.join(posix.dirname(from), specifier));
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((candidate) =>
      paths.has(candidate),
    );
  };
  return new Map(
    files.map((file) => [
      file.path,
      importsOf(file)
        .map(({ specifier }) => resolve(file.path, specifier))
        .filter((target): target is string => target !== undefined),
    ]),
  );
}
