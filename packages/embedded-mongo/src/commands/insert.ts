import { withIdFirst } from '../ops/documents';
import { validateDocument } from '../ops/validation';
import type { Doc } from '../types';
import type { CommandContext } from './context';
import { collectionName } from './env';
import { runBatch, withWriteErrors } from './write-result';

export async function insert(command: Doc, context: CommandContext): Promise<Doc> {
  const collection = context.engine.ensure(context.db, collectionName(command, 'insert'));
  const documents = (command.documents ?? []) as Doc[];
  const options = { bypassDocumentValidation: command.bypassDocumentValidation === true };
  let n = 0;
  const writeErrors = runBatch(documents, command.ordered !== false, (raw) => {
    const doc = withIdFirst(raw);
    validateDocument(collection, doc, undefined, options);
    collection.insert(doc);
    n++;
  });
  await context.engine.flush();
  return withWriteErrors({ n }, writeErrors);
}
