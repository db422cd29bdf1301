// The app as its own process, for the test of its database thread dying: `node test/support/run-ts.js <this file>`.
// Prints `listening <url>` once it accepts requests; a `kill` line on stdin ends the embedded database's thread
// through the package's test hook and prints `killed <n>`.
import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createApp } from '../../../src/bootstrap';

async function main(): Promise<void> {
  const app = await createApp(process.env);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line !== 'kill') return;
    void EmbeddedMongoServer.killThreadsForTests().then((count) => process.stdout.write(`killed ${count}\n`));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
