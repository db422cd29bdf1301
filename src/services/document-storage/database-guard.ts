import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';

/** MongoDB's own databases: never reachable through the document storage bean. */
const SYSTEM_DATABASES = new Set(['admin', 'local', 'config']);
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

/** Refuses every database but the application's own: system databases are a 403, any other name a 404. */
export function assertOwnDatabase(dbName: string, ownName: string): void {
  if (SYSTEM_DATABASES.has(dbName.toLowerCase()))
    throw new ForbiddenException(`Database "${dbName}" is not accessible`);
  if (dbName !== ownName) throw new NotFoundException(`Database "${dbName}" not found`);
}

/** Refuses malformed names (400) and MongoDB's `system.*` collections (403). */
export function assertCollectionName(name: string, what = 'collectionName'): void {
  if (!COLLECTION_NAME.test(name)) throw new BadRequestException(`${what} is not a valid collection name`);
  if (name.startsWith('system.')) throw new ForbiddenException(`Collection "${name}" is not accessible`);
}
