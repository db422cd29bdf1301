import { MongoError } from '../errors';
import { project } from '../ops/projection';
import { deleteDocuments, updateDocuments } from '../ops/write-ops';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';

function projectOne(doc: Doc | undefined, fields: unknown): Doc | null {
  if (!doc) return null;
  return isDoc(fields) && Object.keys(fields).length > 0 ? project([doc], fields)[0] : doc;
}

function remove(command: Doc, context: CommandContext, name: string): Doc {
  if (command.update !== undefined)
    throw new MongoError('FailedToParse', 'Cannot specify both an update and remove=true');
  const collection = context.engine.writable(context.db, name);
  const options = { limit: 1, sort: command.sort as Doc | undefined, hint: command.hint };
  const removed = deleteDocuments(
    collection,
    (command.query ?? {}) as Doc,
    commandEnv(context, command, name),
    options,
  );
  return { lastErrorObject: { n: removed.length }, value: projectOne(removed[0], command.fields) };
}

function update(command: Doc, context: CommandContext, name: string): Doc {
  if (command.update === undefined)
    throw new MongoError('FailedToParse', 'Either an update or remove=true must be specified');
  const collection = context.engine.writable(context.db, name);
  const outcome = updateDocuments(
    collection,
    {
      filter: (command.query ?? {}) as Doc,
      update: command.update as Doc,
      multi: false,
      upsert: command.upsert === true,
      arrayFilters: command.arrayFilters as Doc[] | undefined,
      sort: command.sort as Doc | undefined,
      hint: command.hint,
      env: commandEnv(context, command, name),
      write: { bypassDocumentValidation: command.bypassDocumentValidation === true },
    },
    () => context.engine.ensure(context.db, name),
  );
  const upserted = outcome.upsertedId !== undefined;
  const lastErrorObject: Doc = { n: upserted ? 1 : outcome.matched, updatedExisting: outcome.matched > 0 };
  if (upserted) lastErrorObject.upserted = outcome.upsertedId;
  const value = command.new ? outcome.after : upserted ? undefined : outcome.before;
  return { lastErrorObject, value: projectOne(value, command.fields) };
}

export async function findAndModify(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'findAndModify' in command ? 'findAndModify' : 'findandmodify');
  const reply = command.remove ? remove(command, context, name) : update(command, context, name);
  await context.engine.flush();
  return reply;
}
