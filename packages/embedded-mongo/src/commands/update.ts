import { updateDocuments } from '../ops/write-ops';
import type { Collection } from '../storage/collection';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';
import { runBatch, withWriteErrors } from './write-result';

export async function update(command: Doc, context: CommandContext): Promise<Doc> {
  const name = collectionName(command, 'update');
  const collection = (): Collection | undefined => context.engine.writable(context.db, name);
  const create = (): Collection => context.engine.ensure(context.db, name);
  const statements = (command.updates ?? []) as Doc[];
  const write = { bypassDocumentValidation: command.bypassDocumentValidation === true };
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors = runBatch(statements, command.ordered !== false, (statement, index) => {
    const outcome = updateDocuments(
      collection(),
      {
        filter: (statement.q ?? {}) as Doc,
        update: statement.u as Doc,
        multi: statement.multi === true,
        upsert: statement.upsert === true,
        arrayFilters: statement.arrayFilters as Doc[] | undefined,
        hint: statement.hint,
        env: commandEnv(context, { collation: statement.collation, let: command.let }, command.update),
        write,
      },
      create,
    );
    n += outcome.matched;
    nModified += outcome.modified;
    if (outcome.upsertedId !== undefined) {
      n++;
      upserted.push({ index, _id: outcome.upsertedId });
    }
  });
  await context.engine.flush();
  return withWriteErrors({ n, nModified, ...(upserted.length ? { upserted } : {}) }, writeErrors);
}
