// One app instance as its own process (for tests that SIGKILL it): `node test/support/run-ts.js <this file>`.
// Listens on a free port of 127.0.0.1 and prints `listening <url>` once it accepts requests.
import { AddressInfo } from 'node:net';
import { createApp } from '../../../src/bootstrap';
import { SlowJobModule } from './slow-job.beans';

async function main(): Promise<void> {
  const app = await createApp(process.env, [SlowJobModule]);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
