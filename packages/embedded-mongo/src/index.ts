export { EmbeddedMongoServer, type EmbeddedMongoOptions } from './server';
