#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { EmbeddedMongoServer } from './server';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '27017' },
      host: { type: 'string', default: '127.0.0.1' },
      dbpath: { type: 'string' },
    },
  });
  const server = await EmbeddedMongoServer.start({
    port: Number(values.port),
    host: values.host,
    dbPath: values.dbpath,
    // The server is all this process runs: nothing to yield the CPU to.
    lowerPriority: false,
  });
  process.stdout.write(`${server.uri}\n`);
  server.once('error', (error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
  const shutdown = (): void => {
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
