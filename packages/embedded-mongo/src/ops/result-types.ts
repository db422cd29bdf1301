import { numberTypesOf, setNumberTypes } from '../bson/number-types';
import { isDoc } from '../types';

type Container = Record<string, unknown>;

const isContainer = (value: unknown): value is Container => Array.isArray(value) || isDoc(value);

/**
 * `output` with the BSON number types `source` has wherever a number was carried over unchanged at
 * the same path. Results share containers with stored documents, so a container needing types is
 * copied (with its path), never written: the result is `output` itself when nothing changes.
 */
export function withInheritedTypes(source: unknown, output: unknown): unknown {
  if (source === output || !isContainer(source) || !isContainer(output)) return output;
  const hints = numberTypesOf(source) ?? {};
  const current = numberTypesOf(output) ?? {};
  const added: Container = {};
  const replaced: Container = {};
  for (const key of Object.keys(output)) {
    const value = output[key];
    if (typeof value === 'number') {
      if (value === source[key] && hints[key] && current[key] !== hints[key]) added[key] = hints[key];
      continue;
    }
    const typed = withInheritedTypes(source[key], value);
    if (typed !== value) replaced[key] = typed;
  }
  if (Object.keys(added).length === 0 && Object.keys(replaced).length === 0) return output;
  const copy = Object.assign(Array.isArray(output) ? [...output] : { ...output }, replaced);
  setNumberTypes(copy, { ...current, ...(added as typeof current) });
  return copy;
}
