export { EmbeddedMongoServer, type EmbeddedMongoOptions, type LogEntry } from './server';
