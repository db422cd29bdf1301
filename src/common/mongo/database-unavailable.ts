import { mongo } from 'mongoose';

/**
 * Whether a driver error means the database cannot be reached (the connection dropped, no server to select, the
 * client closed): the request failed for the server's state, not the client's input, and may succeed later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoTopologyClosedError ||
    error instanceof mongo.MongoNotConnectedError
  );
}
