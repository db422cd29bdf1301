/**
 * A module's exports loaded on first use rather than at start-up: for libraries only some requests need (PDF,
 * spreadsheets, DOM, git), which would otherwise sit in the memory of every process. `load` is a `require` call.
 */
export function lazyModule<T extends object>(load: () => T): T {
  let loaded: T | undefined;
  return new Proxy({} as T, { get: (_, key) => Reflect.get((loaded ??= load()), key) });
}
