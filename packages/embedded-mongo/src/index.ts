export {
  CommitCounters,
  EmbeddedMongoServer,
  type CommitCountersOptions,
  type EmbeddedMongoOptions,
  type LogEntry,
} from './server';
