import { isAbsolute } from 'node:path';
import { MongoError } from '../errors';
import type { CommandTable } from './context';

/**
 * `{embeddedMongoBackup: 1, to: '<absolute path of a new or empty directory>'}` on `admin`: a consistent copy of the
 * store, holding every write acknowledged before the command, taken while the server serves (see
 * `LmdbStore.backup`). Not a MongoDB command; `npm run db:backup` sends it. It never overwrites: a target that holds
 * files is refused.
 */
export const backupCommands: CommandTable = {
  embeddedMongoBackup: async (command, context) => {
    if (context.db !== 'admin')
      throw new MongoError('IllegalOperation', 'embeddedMongoBackup runs on the admin database');
    const to = command.to;
    if (typeof to !== 'string' || !isAbsolute(to)) {
      throw new MongoError('BadValue', "embeddedMongoBackup needs 'to', the absolute path of a new or empty directory");
    }
    try {
      await context.engine.backup(to);
    } catch (error) {
      if (error instanceof MongoError) throw error;
      throw new MongoError('InternalError', `backup to ${to} failed: ${(error as Error).message}`);
    }
    return { to };
  },
};
