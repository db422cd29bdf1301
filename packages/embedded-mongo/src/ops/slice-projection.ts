import { isDoc, type Doc } from '../types';

type SliceSpec = number | [number, number];

/** The `$slice` fields of a projection, and the projection without them. */
export function splitSlices(projection: Doc): { slices: [string, SliceSpec][]; rest: Doc } {
  const slices: [string, SliceSpec][] = [];
  const rest: Doc = {};
  for (const [path, value] of Object.entries(projection)) {
    if (isDoc(value) && Object.keys(value).length === 1 && '$slice' in value) {
      slices.push([path, value.$slice as SliceSpec]);
    } else {
      rest[path] = value;
    }
  }
  return { slices, rest };
}

/** Whether a projection (without its `$slice` fields) names fields to keep rather than fields to leave out. */
export function isInclusion(projection: Doc): boolean {
  return Object.entries(projection).some(([path, value]) => path !== '_id' && (isDoc(value) || Boolean(value)));
}

function sliceArray(array: unknown[], spec: SliceSpec): unknown[] {
  if (!Array.isArray(spec)) return spec >= 0 ? array.slice(0, spec) : array.slice(spec);
  const [skip, limit] = spec.map(Number);
  const start = skip >= 0 ? skip : Math.max(array.length + skip, 0);
  return array.slice(start, start + limit);
}

/** The value with the array at `parts` sliced, through arrays of subdocuments on the way; never mutates. */
function sliceAt(value: unknown, parts: string[], spec: SliceSpec): unknown {
  if (parts.length === 0) return Array.isArray(value) ? sliceArray(value, spec) : value;
  if (Array.isArray(value)) return value.map((item) => sliceAt(item, parts, spec));
  if (!isDoc(value) || !(parts[0] in value)) return value;
  return { ...value, [parts[0]]: sliceAt(value[parts[0]], parts.slice(1), spec) };
}

/**
 * `$slice` is neither an inclusion nor an exclusion (MongoDB manual, `$slice` projection): beside excluded fields,
 * or alone, every other field is returned, with the arrays sliced. mingo counts it as an inclusion, so these
 * projections apply the exclusions first and the slices here after.
 */
export function applySlices(doc: Doc, slices: [string, SliceSpec][]): Doc {
  return slices.reduce<Doc>((sliced, [path, spec]) => sliceAt(sliced, path.split('.'), spec) as Doc, doc);
}
