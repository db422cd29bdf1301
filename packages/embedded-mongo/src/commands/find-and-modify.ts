import { MongoError } from '../errors';
import { findMatches, project } from '../ops/match';
import { deleteDocuments, updateDocuments } from '../ops/write-ops';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';

function projectOne(doc: Doc | undefined, fields: unknown): Doc | null {
  if (!doc) return null;
  return isDoc(fields) && Object.keys(fields).length > 0 ? project([doc], fields)[0] : doc;
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
    return { lastErrorObject: { n: removed.length }, value: projectOne(removed[0], command.fields) };
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
  return { lastErrorObject, value: projectOne(value, command.fields) };
}
