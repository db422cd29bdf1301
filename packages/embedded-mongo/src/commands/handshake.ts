import * as os from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { codecStats } from '../bson/codec';
import { MAX_BSON_SIZE } from '../storage/collection';
import { MAX_MESSAGE_SIZE } from '../wire/framer';
import type { Doc } from '../types';
import type { CommandContext, CommandTable } from './context';

export const SERVER_VERSION = '7.0.14';

/**
 * No `topologyVersion`: without it drivers poll with plain hello instead of the streaming (exhaust)
 * protocol, which a standalone without topology changes does not need.
 */
function hello(command: Doc, context: CommandContext, legacyName: boolean): Doc {
  return {
    ...(legacyName ? { ismaster: true } : { isWritablePrimary: true }),
    ...(command.helloOk ? { helloOk: true } : {}),
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: 100000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: context.connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
  };
}

const buildInfo = (): Doc => ({
  version: SERVER_VERSION,
  gitVersion: 'embedded',
  versionArray: [...SERVER_VERSION.split('.').map(Number), 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_SIZE,
  storageEngines: ['lmdb'],
  modules: [],
});

/** The server thread's V8 heap, MiB: in use, and its limit (the `maxHeapMb` option plus V8's young generation). */
function heapMegabytes(): Doc {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  return { usedMb: Math.round(used / 2 ** 20), limitMb: Math.round(limit / 2 ** 20) };
}

export const handshakeCommands: CommandTable = {
  hello: (command, context) => hello(command, context, false),
  isMaster: (command, context) => hello(command, context, true),
  ismaster: (command, context) => hello(command, context, true),
  ping: () => ({}),
  buildInfo,
  buildinfo: buildInfo,
  getParameter: (command) =>
    command.featureCompatibilityVersion ? { featureCompatibilityVersion: { version: '7.0' } } : {},
  hostInfo: () => ({
    system: { hostname: os.hostname(), numCores: os.cpus().length, memSizeMB: Math.round(os.totalmem() / 2 ** 20) },
    os: { type: os.type() },
  }),
  connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] } }),
  whatsmyuri: (_command, context) => ({ you: `connection ${context.connectionId}` }),
  getCmdLineOpts: () => ({ argv: process.argv, parsed: {} }),
  serverStatus: (_command, context) => ({
    host: os.hostname(),
    version: SERVER_VERSION,
    process: 'embedded-mongo',
    uptime: process.uptime(),
    embeddedMongo: {
      documentsSerialized: codecStats.documentsSerialized,
      storage: { ...context.engine.commitStats },
      heap: heapMegabytes(),
    },
  }),
  endSessions: (command, context) => {
    context.sessions.end(command.endSessions as unknown[]);
    return {};
  },
  killAllSessions: () => ({}),
  // No getLastError: MongoDB removed it in 5.1, so 7.0 answers CommandNotFound like any unknown command.
};
