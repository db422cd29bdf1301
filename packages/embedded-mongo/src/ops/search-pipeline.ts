import { copyNumberTypes } from '../bson/number-types';
import { MongoError } from '../errors';
import { geoNearStage } from '../geo/geo-near-stage';
import { findNearCondition } from '../geo/near-query';
import type { QueryEnv } from '../query/mingo-options';
import { isDoc, type Doc } from '../types';
import type { ReadSource } from './match-options';
import { mentionsTextScore, noTextScore, textHits, TEXT_SCORE_FIELD } from './search-match';

const isTextScore = (value: unknown): boolean => isDoc(value) && value.$meta === 'textScore';

/** `{$meta: 'textScore'}` becomes a reference to the score carried on the input copies. */
function rewriteMeta(value: unknown): unknown {
  if (isTextScore(value)) return `$${TEXT_SCORE_FIELD}`;
  if (Array.isArray(value)) return value.map(rewriteMeta);
  if (!isDoc(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewriteMeta(item)]));
}

function rewriteStage(stage: Doc): Doc {
  if (!isDoc(stage.$sort)) return rewriteMeta(stage) as Doc;
  const sort = Object.entries(stage.$sort).map(([field, order]) =>
    isTextScore(order) ? [TEXT_SCORE_FIELD, -1] : [field, order],
  );
  return { $sort: Object.fromEntries(sort) };
}

/** MongoDB's placement rules: `$geoNear` and a `$text` `$match` only first, `$near` never in a pipeline. */
function checkStages(pipeline: Doc[]): void {
  pipeline.forEach((stage, position) => {
    if ('$geoNear' in stage && position > 0)
      throw new MongoError('Location40602', '$geoNear is only valid as the first stage in a pipeline.');
    if (!isDoc(stage.$match)) return;
    if (findNearCondition(stage.$match)) {
      throw new MongoError(
        'Location5626500',
        '$geoNear, $near, and $nearSphere are not allowed in this context, as these operators require sorting ' +
          'geospatial data. If you do not need sort, consider using $geoWithin instead.',
      );
    }
    if (position > 0 && '$text' in stage.$match)
      throw new MongoError('Location17313', '$match with $text is only allowed as the first pipeline stage');
  });
}

/**
 * The input of a pipeline that starts with a `$text` `$match` (copies carrying their score, the
 * `$meta: 'textScore'` uses rewritten onto it and the field removed at the end) or with `$geoNear`.
 * Undefined for any other pipeline.
 */
export function searchPipelineSource(
  input: ReadSource,
  pipeline: Doc[],
  env: QueryEnv,
): { docs: Doc[]; stages: Doc[] } | undefined {
  checkStages(pipeline);
  const first = pipeline[0];
  const collection = Array.isArray(input) ? undefined : input;
  const searches = first && ('$geoNear' in first || (isDoc(first.$match) && '$text' in first.$match));
  if (!searches && mentionsTextScore(pipeline)) throw noTextScore();
  if (!searches) return undefined;
  if (input === undefined) return { docs: [], stages: pipeline.slice(1) }; // no collection, no documents
  if ('$geoNear' in first) return { docs: geoNearStage(collection, first.$geoNear, env), stages: pipeline.slice(1) };
  const docs = textHits(input, first.$match as Doc, env).map((hit) => {
    const copy: Doc = { ...hit.doc, [TEXT_SCORE_FIELD]: hit.score };
    copyNumberTypes(hit.doc, copy);
    return copy;
  });
  return { docs, stages: [...pipeline.slice(1).map(rewriteStage), { $unset: TEXT_SCORE_FIELD }] };
}
