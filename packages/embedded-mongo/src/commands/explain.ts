import os from 'node:os';
import { MongoError } from '../errors';
import { chooseIndex } from '../indexes/planner';
import { findMatches, type ReadSource } from '../ops/match';
import { searchPlan } from '../ops/search-match';
import { isDoc, type Doc } from '../types';
import type { CommandContext, CommandTable } from './context';
import { commandEnv } from './env';
import { SERVER_VERSION } from './handshake';
import { readSource } from './read-source';

const VERBOSITIES = ['queryPlanner', 'executionStats', 'allPlansExecution'];

/** The filter each explainable command runs its read with. */
function filterOf(name: string, inner: Doc): Doc {
  const pick = (value: unknown): Doc => (isDoc(value) ? value : {});
  switch (name) {
    case 'find':
      return pick(inner.filter);
    case 'aggregate':
      return pick((inner.pipeline as Doc[] | undefined)?.[0]?.$match);
    case 'update':
      return pick((inner.updates as Doc[] | undefined)?.[0]?.q);
    case 'delete':
      return pick((inner.deletes as Doc[] | undefined)?.[0]?.q);
    case 'count':
    case 'distinct':
    case 'findAndModify':
      return pick(inner.query);
  }
  throw new MongoError('CommandNotFound', `Explain failed due to unknown command: ${name}`);
}

function winningPlan(source: ReadSource, filter: Doc, collation?: Doc): Doc {
  // Text and geo filters are planned through their own indexes (src/ops/search-match.ts).
  const search = searchPlan(source, filter);
  if (search) return search;
  const chosen = source && !Array.isArray(source) ? chooseIndex(source, filter, collation) : undefined;
  if (!chosen) return { stage: 'COLLSCAN', filter, direction: 'forward' };
  const { spec } = chosen.index;
  return { stage: 'FETCH', filter, inputStage: { stage: 'IXSCAN', keyPattern: spec.key, indexName: spec.name, isUnique: !!spec.unique, direction: 'forward' } };
}

/** Reads are run to report their counts; writes are planned only, never applied. */
function executionStats(name: string, source: ReadSource, filter: Doc, inner: Doc, context: CommandContext): Doc {
  const isRead = ['find', 'count', 'distinct', 'aggregate'].includes(name);
  const started = Date.now();
  const matches = isRead ? findMatches(source, filter, commandEnv(context, inner, inner[name]), { hint: inner.hint }).length : 0;
  const examined = Array.isArray(source) ? source.length : (source?.docs.size ?? 0);
  return { executionSuccess: true, nReturned: matches, executionTimeMillis: Date.now() - started, totalKeysExamined: 0, totalDocsExamined: examined };
}

function explain(command: Doc, context: CommandContext): Doc {
  const inner = command.explain;
  if (!isDoc(inner)) throw new MongoError('BadValue', 'explain command requires a nested object');
  const verbosity = String(command.verbosity ?? 'allPlansExecution');
  if (!VERBOSITIES.includes(verbosity)) throw new MongoError('FailedToParse', `verbosity string must be one of {${VERBOSITIES.join(', ')}}`);
  const name = Object.keys(inner)[0] ?? '';
  const filter = filterOf(name, inner);
  const source = readSource(context, String(inner[name]));
  const queryPlanner = {
    namespace: `${context.db}.${String(inner[name])}`,
    indexFilterSet: false,
    parsedQuery: filter,
    winningPlan: winningPlan(source, filter, inner.collation as Doc | undefined),
    rejectedPlans: [],
  };
  return {
    explainVersion: '1',
    queryPlanner,
    ...(verbosity === 'queryPlanner' ? {} : { executionStats: executionStats(name, source, filter, inner, context) }),
    command: { ...inner, $db: context.db },
    serverInfo: { host: os.hostname(), port: 0, version: SERVER_VERSION, gitVersion: 'embedded' },
  };
}

export const explainCommands: CommandTable = { explain };
