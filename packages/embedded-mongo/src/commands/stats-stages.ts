import os from 'node:os';
import { Long } from 'bson';
import { collectionScans } from '../indexes/planner';
import { isDoc, type Doc } from '../types';
import type { CommandContext } from './context';
import { statsTarget, storageStats } from './stats';

function collStatsDoc(spec: Doc, context: CommandContext, name: string): Doc {
  const collection = statsTarget(context, name);
  const doc: Doc = { ns: collection.ns, host: os.hostname(), localTime: new Date() };
  if (isDoc(spec.latencyStats)) {
    const zero = { latency: Long.fromNumber(0), ops: Long.fromNumber(0) };
    doc.latencyStats = { reads: zero, writes: zero, commands: zero, transactions: zero };
  }
  if (isDoc(spec.storageStats)) doc.storageStats = storageStats(collection);
  if (isDoc(spec.count)) doc.count = collection.docs.size;
  if (isDoc(spec.queryExecStats)) {
    const scans = Long.fromNumber(collectionScans(collection));
    doc.queryExecStats = { collectionScans: { total: scans, nonTailable: scans } };
  }
  return doc;
}

function indexStatsDocs(context: CommandContext, name: string): Doc[] {
  const collection = context.engine.collection(context.db, name);
  const host = os.hostname();
  return [...(collection?.indexes.values() ?? [])].map((index) => ({
    name: index.name,
    key: index.spec.key,
    host,
    accesses: { ops: Long.fromNumber(index.accesses), since: index.since },
    spec: index.spec,
  }));
}

/** Documents of a leading `$collStats` / `$indexStats` stage, else undefined. */
export function statsStageDocs(stage: Doc | undefined, context: CommandContext, name: string): Doc[] | undefined {
  if (stage && isDoc(stage.$collStats)) return [collStatsDoc(stage.$collStats, context, name)];
  if (stage && isDoc(stage.$indexStats)) return indexStatsDocs(context, name);
  return undefined;
}
