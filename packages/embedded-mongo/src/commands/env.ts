import { MongoError } from '../errors';
import { evaluateVariables, type QueryEnv } from '../query/mingo-options';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { withPipelines } from './pipeline-env';
import { readSource } from './read-source';

/**
 * The query environment of a command on `collection`: its collation (else the collection's default
 * one), `let` variables and same-database lookups.
 */
export function commandEnv(
  context: CommandContext,
  options: { collation?: unknown; let?: unknown },
  collection?: unknown,
): QueryEnv {
  const defaultCollation =
    typeof collection === 'string' ? context.engine.collection(context.db, collection)?.options.collation : undefined;
  const env = {
    collation: (options.collation ?? defaultCollation) as Doc | undefined,
    variables: evaluateVariables(options.let),
  };
  return withPipelines(env, (name) => readSource(context, name));
}

export function collectionName(command: Doc, field: string): string {
  const name = command[field];
  if (typeof name !== 'string') {
    throw new MongoError('InvalidNamespace', `collection name has invalid type ${typeof name}`);
  }
  return name;
}
