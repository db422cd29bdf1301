import type { Doc } from './types';

/** MongoDB error codes used by this server (see mongo/base/error_codes.yml). */
export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  TypeMismatch: 14,
  ProtocolError: 17,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  DocumentValidationFailure: 121,
  CommandNotSupportedOnView: 166,
  QueryPlanKilled: 175,
  NoQueryExecutionPlans: 291,
  CannotConvertIndexToUnique: 359,
  BSONObjectTooLarge: 10334,
  Location13026: 13026,
  Location13027: 13027,
  Location16755: 16755,
  Location17262: 17262,
  Location17287: 17287,
  Location17313: 17313,
  Location40218: 40218,
  Location40324: 40324,
  Location40414: 40414,
  Location40602: 40602,
  InterruptedAtShutdown: 11600,
  DuplicateKey: 11000,
  OutOfDiskSpace: 14031,
  Location40100: 40100,
  Location40101: 40101,
  Location40103: 40103,
  Location40104: 40104,
  Location40105: 40105,
  Location40185: 40185,
  Location40600: 40600,
  Location51173: 51173,
  Location5626500: 5626500,
  Location6108304: 6108304,
} as const;

export type CodeName = keyof typeof ErrorCodes;

/** A server error that becomes an `{ok: 0, code, codeName, errmsg}` reply or a write error. */
export class MongoError extends Error {
  readonly code: number;

  constructor(
    readonly codeName: CodeName,
    message: string,
    readonly extra: Doc = {},
  ) {
    super(message);
    this.code = ErrorCodes[codeName];
  }

  toReply(): Doc {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  toWriteError(index: number): Doc {
    return { index, code: this.code, codeName: this.codeName, errmsg: this.message, ...this.extra };
  }
}

/** mingo's error for a stage it does not know, which MongoDB answers with `Location40324`. */
const UNKNOWN_STAGE = /^unregistered pipeline operator (\$\w+)\.?$/;

/**
 * Any thrown value as a MongoError: mingo and bson errors are user-input errors (BadValue), but for an unknown
 * aggregation stage, which gets MongoDB's code and message (clients such as mongoose look for it).
 */
export function toMongoError(error: unknown): MongoError {
  if (error instanceof MongoError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const unknownStage = UNKNOWN_STAGE.exec(message);
  if (unknownStage) return new MongoError('Location40324', `Unrecognized pipeline stage name: '${unknownStage[1]}'`);
  return new MongoError('BadValue', message);
}
