import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { EMBEDDED_MONITOR_TIMEOUT_MS, EmbeddedDatabase } from '../../src/database/embedded-database';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The driver's server monitor gives the embedded database's single thread minutes, not 30 s, to answer `hello`
 * behind a long command (see EMBEDDED_MONITOR_TIMEOUT_MS): the app's own connection and the URI other instances use.
 */
describe('the embedded database and the driver server monitor', () => {
  let test: TestApp;
  beforeAll(async () => (test = await startTestApp()));
  afterAll(() => test.stop());

  it("waits minutes for the database thread's hello on the app's connection", () => {
    const connection = test.app.get<Connection>(getConnectionToken());
    expect(EMBEDDED_MONITOR_TIMEOUT_MS).toBeGreaterThanOrEqual(120_000);
    expect(connection.getClient().options.connectTimeoutMS).toBe(EMBEDDED_MONITOR_TIMEOUT_MS);
  });

  it('hands other instances a URI with the same wait, which the driver accepts', async () => {
    const uri = test.app.get(EmbeddedDatabase).tcpUri!;
    expect(new URL(uri).searchParams.get('connectTimeoutMS')).toBe(String(EMBEDDED_MONITOR_TIMEOUT_MS));
    const other = await startTestApp({ env: { MONGODB_URI: uri } });
    try {
      const otherConnection = other.app.get<Connection>(getConnectionToken());
      expect(otherConnection.getClient().options.connectTimeoutMS).toBe(EMBEDDED_MONITOR_TIMEOUT_MS);
      expect(await otherConnection.db!.command({ ping: 1 })).toMatchObject({ ok: 1 });
    } finally {
      await other.stop();
    }
  });
});
