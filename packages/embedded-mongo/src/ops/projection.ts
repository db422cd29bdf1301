import { Query } from 'mingo/query';
import { elementPick } from '../bson/picked-elements';
import { effectiveFilter, filterOptions, type QueryEnv } from '../query/mingo-options';
import type { Doc } from '../types';
import { fieldInclusion, pickFields, type FieldInclusion } from './field-projection';
import { rememberPickedBytes } from './known-bytes';
import { withInheritedTypes } from './result-types';
import { detachExcluded } from './shared-stages';
import { applySlices, isInclusion, splitSlices } from './slice-projection';

/**
 * The documents projected as MongoDB does, `_id` first and the BSON number types kept. `filter` is the one the
 * documents matched, which a positional projection (`'tags.$': 1`) reads its element from.
 */
export function project(docs: Doc[], projection: Doc, env: QueryEnv = {}, filter: Doc = {}): Doc[] {
  const inclusion = fieldInclusion(projection);
  if (inclusion) return pickEach(docs, inclusion);
  const { slices, rest } = splitSlices(projection);
  if (slices.length === 0 || isInclusion(rest)) return mingoProject(docs, projection, env, filter);
  const excluded = Object.keys(rest).length ? mingoProject(docs, rest, env, filter) : docs;
  return excluded.map((doc, i) => withInheritedTypes(docs[i], applySlices(doc, slices)) as Doc);
}

/** Each document's included top-level fields; a stored version's pick also gets its BSON, copied from the stored. */
function pickEach(docs: Doc[], inclusion: FieldInclusion): Doc[] {
  const pick = elementPick(inclusion.fields, inclusion.withId);
  return docs.map((doc) => {
    const picked = withInheritedTypes(doc, pickFields(doc, inclusion)) as Doc;
    rememberPickedBytes(doc, picked, pick);
    return picked;
  });
}

/** mingo's projection, with `_id` first as MongoDB returns it. */
function mingoProject(docs: Doc[], projection: Doc, env: QueryEnv, filter: Doc): Doc[] {
  // mingo resolves a positional projection from its query's condition (which the documents match already).
  const condition = Object.keys(projection).some((path) => path.endsWith('.$')) ? effectiveFilter(filter, env) : {};
  // mingo's projection removes dotted exclusions from the objects it is given: those get copies.
  const query = new Query(condition, filterOptions(env, condition, projection));
  const projected = query.find<Doc>(detachExcluded(docs, projection), projection).all();
  return projected.map((doc, i) => {
    const ordered = '_id' in doc ? { _id: doc._id, ...doc } : doc;
    return withInheritedTypes(docs[i], ordered) as Doc;
  });
}
