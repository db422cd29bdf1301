import type { CollationSpec, Options } from 'mingo/types';
import type { Doc } from '../types';

/** Per-command inputs that change query/aggregation semantics. */
export interface QueryEnv {
  collation?: Doc;
  /** `let` variables of the command. */
  variables?: Doc;
  /** Documents of another collection of the same database ($lookup, $unionWith, $graphLookup). */
  resolve?: (name: string) => Doc[];
}


export function toCollation(collation: Doc | undefined): CollationSpec | undefined {
  if (!collation || collation.locale === undefined || collation.locale === 'simple') return undefined;
  return collation as unknown as CollationSpec;
}

export function mingoOptions(env: QueryEnv = {}): Partial<Options> {
  return {
    idKey: '_id',
    useStrictMode: true,
    collation: toCollation(env.collation),
    variables: env.variables,
    collectionResolver: env.resolve,
  };
}
