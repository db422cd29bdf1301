import { deleteDocuments } from '../ops/write-ops';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';
import { runBatch, withWriteErrors } from './write-result';

export async function deleteCommand(command: Doc, context: CommandContext): Promise<Doc> {
  const collection = context.engine.writable(context.db, collectionName(command, 'delete'));
  const statements = (command.deletes ?? []) as Doc[];
  let n = 0;
  const writeErrors = runBatch(statements, command.ordered !== false, (statement) => {
    const env = commandEnv(context, { collation: statement.collation, let: command.let }, command.delete);
    const options = { limit: Number(statement.limit ?? 0), hint: statement.hint };
    n += deleteDocuments(collection, (statement.q ?? {}) as Doc, env, options).length;
  });
  await context.engine.flush();
  return withWriteErrors({ n }, writeErrors);
}
