import { MongoError } from '../errors';
import { findMatches } from '../ops/match';
import { deleteDocuments, updateDocuments } from '../ops/write-ops';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';
import { Query } from 'mingo/query';
import { mingoOptions } from '../query/mingo-options';

function project(doc: Doc | undefined, fields: unknown): Doc | null {
  if (!doc) return null;
  if (!fields || Object.keys(fields).length === 0) return doc;
  return new Query({}, mingoOptions()).find<Doc>([doc], fields as Doc).all()[0];
}

export async function findAndModify(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'findAndModify' in command ? 'findAndModify' : 'findandmodify');
  const filter = (command.query ?? {}) as Doc;
  const env = commandEnv(context, command);
  const sort = command.sort as Doc | undefined;
  if (command.remove) {
    if (command.update !== undefined) throw new MongoError('FailedToParse', 'Cannot specify both an update and remove=true');
    const collection = context.engine.collection(context.db, name);
    const removed = collection ? deleteDocuments(collection, filter, env, { limit: 1, sort, hint: command.hint }) : findMatches(undefined, filter, env, { hint: command.hint });
    await context.engine.flush();
    return { lastErrorObject: { n: removed.length }, value: project(removed[0], command.fields) };
  }
  if (command.update === undefined) throw new MongoError('FailedToParse', 'Either an update or remove=true must be specified');
  const collection = context.engine.ensure(context.db, name);
  const outcome = updateDocuments(collection, {
    filter,
    update: command.update as Doc,
    multi: false,
    upsert: command.upsert === true,
    arrayFilters: command.arrayFilters as Doc[] | undefined,
    sort,
    hint: command.hint,
    env,
    write: { bypassDocumentValidation: command.bypassDocumentValidation === true },
  });
  await context.engine.flush();
  const upserted = outcome.upsertedId !== undefined;
  const lastErrorObject: Doc = { n: upserted ? 1 : outcome.matched, updatedExisting: outcome.matched > 0 };
  if (upserted) lastErrorObject.upserted = outcome.upsertedId;
  const value = command.new ? outcome.after : upserted ? undefined : outcome.before;
  return { lastErrorObject, value: project(value, command.fields) };
}
