import { MongoError, toMongoError } from '../errors';
import { log } from '../log';
import type { Doc } from '../types';
import { aggregate } from './aggregate';
import { backupCommands } from './backup';
import { collectionCommands } from './collections';
import type { CommandContext, CommandTable } from './context';
import { countCommands } from './count-distinct';
import { deleteCommand } from './delete';
import { explainCommands } from './explain';
import { findCommands } from './find';
import { findAndModify } from './find-and-modify';
import { handshakeCommands } from './handshake';
import { indexCommands } from './indexes';
import { insert } from './insert';
import { statsCommands } from './stats';
import { update } from './update';

const COMMANDS: CommandTable = {
  ...handshakeCommands,
  ...findCommands,
  ...countCommands,
  ...collectionCommands,
  ...indexCommands,
  ...statsCommands,
  ...explainCommands,
  ...backupCommands,
  insert,
  update,
  delete: deleteCommand,
  findAndModify,
  findandmodify: findAndModify,
  aggregate,
};

/** Sessions are accepted, but a standalone server has no transactions (nor retryable writes). */
function rejectTransactions(command: Doc): void {
  if (command.startTransaction || command.autocommit === false || command.txnNumber !== undefined) {
    throw new MongoError('IllegalOperation', 'Transaction numbers are only allowed on a replica set member or mongos');
  }
}

/** Runs one command and always returns a reply document (`ok: 0` with code/codeName on errors). */
export async function runCommand(command: Doc, context: Omit<CommandContext, 'db'>): Promise<Doc> {
  const name = Object.keys(command)[0] ?? '';
  try {
    const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!handler) throw new MongoError('CommandNotFound', `no such command: '${name}'`);
    rejectTransactions(command);
    context.sessions.touch(command.lsid);
    const reply = await handler(command, { ...context, db: String(command.$db ?? 'admin') });
    return { ...reply, ok: 1 };
  } catch (error) {
    if (isProgrammingError(error)) {
      const message = `command ${name} failed unexpectedly: ${error.name}: ${error.message}`;
      log({ level: 'error', source: `conn${context.connectionId}`, message });
    }
    return toMongoError(error).toReply();
  }
}

/** Errors that point at this server's code rather than at the command's input: logged for the operator. */
function isProgrammingError(error: unknown): error is Error {
  return error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError;
}
