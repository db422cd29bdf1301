import { deleteDocuments } from '../ops/write-ops';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName, commandEnv } from './env';
import { checkHint } from '../ops/match';
import { runBatch, withWriteErrors } from './write-result';

export async function deleteCommand(command: Doc, context: CommandContext): Promise<Doc> {
  const collection = context.engine.collection(context.db, collectionName(command, 'delete'));
  const statements = (command.deletes ?? []) as Doc[];
  let n = 0;
  const writeErrors = runBatch(statements, command.ordered !== false, (statement) => {
    checkHint(collection, statement.hint);
    if (!collection) return;
    const env = commandEnv(context, { collation: statement.collation, let: command.let });
    n += deleteDocuments(collection, (statement.q ?? {}) as Doc, env, { limit: Number(statement.limit ?? 0) }).length;
  });
  await context.engine.flush();
  return withWriteErrors({ n }, writeErrors);
}
