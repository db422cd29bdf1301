import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { startTestApp } from '../support/test-app';

/** `serverStatus.embeddedMongo.heap` of the app's embedded database, started with this environment. */
async function databaseHeap(env: Record<string, string>): Promise<{ usedMb: number; limitMb: number }> {
  const app = await startTestApp({ env });
  try {
    const connection = app.app.get<Connection>(getConnectionToken());
    const status = await connection.db!.admin().command({ serverStatus: 1 });
    return status.embeddedMongo.heap as { usedMb: number; limitMb: number };
  } finally {
    await app.stop();
  }
}

describe("the embedded database thread's heap limit (EMBEDDED_DB_MAX_HEAP_MB)", () => {
  // V8's limit is the old generation's (the setting) plus the young generation's few tens of MiB.
  it('starts the thread with the limit the variable sets', async () => {
    const { limitMb } = await databaseHeap({ EMBEDDED_DB_MAX_HEAP_MB: '1500' });
    expect(limitMb).toBeGreaterThanOrEqual(1500);
    expect(limitMb).toBeLessThan(1600);
  });
});
