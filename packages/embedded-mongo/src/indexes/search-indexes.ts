import { GeoIndex, isGeoKind } from '../geo/geo-index';
import { TextIndex } from '../text/text-index';
import { isTextKey, normalizeTextSpec } from '../text/text-spec';
import type { IndexSpec } from './index-spec';

/**
 * Text and geo indexes: their own structures (an inverted index, an R-tree), kept apart from the
 * B-tree `Index` so the planner never scans them as ordinary indexes. They share its maintenance
 * methods (`checkUnique` validates a document before any index changes).
 */
export type SearchIndex = TextIndex | GeoIndex;

export function isSearchSpec(spec: IndexSpec): boolean {
  return isTextKey(spec.key) || Object.values(spec.key).some(isGeoKind);
}

/** The spec as MongoDB stores it: text keys as `_fts`/`_ftsx` with weights, 2dsphere with its version. */
export function normalizeSearchSpec(spec: IndexSpec): IndexSpec {
  if (isTextKey(spec.key)) return normalizeTextSpec(spec);
  if (Object.values(spec.key).includes('2dsphere'))
    return { ...spec, '2dsphereIndexVersion': spec['2dsphereIndexVersion'] ?? 3 };
  return spec;
}

export function createSearchIndex(spec: IndexSpec): SearchIndex {
  return isTextKey(spec.key) ? new TextIndex(spec) : new GeoIndex(spec);
}
