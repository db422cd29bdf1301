import { EmbeddedMongoServer } from '@ccb/embedded-mongo';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { ServerProcess, startServerProcess } from '../support/server-process';
import { callBeanAt, startTestApp } from '../support/test-app';
import { Buyer, checkOut, createBuyer, payOrder } from './support/order-calls';
import { createOffer } from './support/order-fixtures';

/** Generous: each step starts a whole app process, on a machine that may be loaded. */
const TIMEOUT_MS = 300_000;

interface Document {
  orderId: string;
  kind: string;
  number: string;
}

/**
 * What a process killed with SIGKILL between two steps of the order path leaves owed, and how the next instance
 * pays it: the app runs as a child process (`test/orders/support/die-at.ts`) that kills itself at the step named,
 * then a plain `src/main.ts` starts on the same database. Orders are prepared by an in-process instance that is
 * stopped before, so only the restarted process can do the owed work.
 */
describe('crash between a decision and its documents', () => {
  let db: EmbeddedMongoServer;
  let dataDir: string;
  let env: Record<string, string>;
  let buyer: Buyer;
  let admin: string;
  let unpaidOrderId: string;
  let paidOrderId: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await EmbeddedMongoServer.start({ port: 0, host: '127.0.0.1', dbPath: undefined });
    dataDir = mkdtempSync(join(tmpdir(), 'ccb-crash-'));
    env = {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_FORMAT: 'json',
      MONGODB_URI: `${db.uri.replace(/\/$/, '')}/crash`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      INVOICE_RETRY_AFTER: '2s',
      // A killed instance's task leases lapse after this: the restarted one takes them over.
      JOB_LEASE_MS: '2000',
    };
    const setup = await startTestApp({ env: { ...env, LOG_LEVEL: 'silent' } });
    try {
      admin = setup.tokenFor(Role.ADMIN);
      buyer = await createBuyer(setup);
      const offer = await createOffer(setup);
      const line = [{ sellerSkuId: offer.sellerSkuId, quantity: 1 }];
      [{ id: unpaidOrderId }] = await checkOut(setup, buyer, line);
      [{ id: paidOrderId }] = await checkOut(setup, buyer, line);
      expect((await payOrder(setup, buyer, paidOrderId, admin)).orderStatus).toBe('PAID');
    } finally {
      await setup.stop();
    }
  }, TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await db?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A child process of the app; `dieAt` names the step where it kills itself. */
  async function start(dieAt?: string): Promise<{ server: ServerProcess; url: string }> {
    const server = dieAt
      ? startServerProcess({ ...env, LOG_LEVEL: 'info', DIE_AT: dieAt }, { entry: 'test/orders/support/die-at.ts' })
      : startServerProcess({ ...env, LOG_LEVEL: 'info' });
    servers.push(server);
    expect(await server.logged('Listening on')).toBe(true);
    const url = /Listening on (http:\/\/[\d.]+:\d+)/.exec(server.output().stdout)![1];
    return { server, url };
  }

  async function expectKilledAt(server: ServerProcess, step: string): Promise<void> {
    expect(await server.exited).toBeNull();
    expect(server.child.signalCode).toBe('SIGKILL');
    expect(server.output().stdout).toContain(`Dying at ${step}`);
  }

  const order = (url: string, fn: string, args: unknown[], token: string) =>
    callBeanAt(url, 'orderServiceImpl', fn, args, { token });
  const documentsOf = async (url: string, orderId: string): Promise<Document[]> => {
    const mine = await request(url).get('/api/v1/invoices/mine').set('Authorization', `Bearer ${buyer.token}`);
    expect(mine.status).toBe(200);
    return (mine.body as { content: Document[] }).content.filter((one) => one.orderId === orderId);
  };

  it(
    'should issue the invoice once after the process died between the move to PAID and the invoice',
    async () => {
      const dying = await start('invoice');
      await order(
        dying.url,
        'digitalOrderCheckout',
        [{ orderId: unpaidOrderId, paymentMethodId: 'pm_card_visa' }],
        buyer.token,
      ).expect(200);
      await order(dying.url, 'pay', [unpaidOrderId], buyer.token).catch(() => undefined); // the process dies answering
      await expectKilledAt(dying.server, 'invoice');

      const restarted = await start();
      expect(await restarted.server.logged('order-paid-retry: 1 paid order(s) got their invoice')).toBe(true);
      const documents = await documentsOf(restarted.url, unpaidOrderId);
      expect(documents.map(({ kind }) => kind)).toEqual(['buyer-to-vendor']);
      const { body } = await order(restarted.url, 'getOrder', [unpaidOrderId], buyer.token).expect(200);
      expect(body.status).toBe('PAID');
      await restarted.server.stop();
    },
    TIMEOUT_MS,
  );

  it(
    'should issue the credit note once after the process died between the refund settled and its credit note',
    async () => {
      const dying = await start('credit-note');
      // The sandbox settles the refund by its webhook to this very process, which dies issuing the note.
      await order(dying.url, 'refundOrder', [{ orderId: paidOrderId }], admin).catch(() => undefined);
      await expectKilledAt(dying.server, 'credit-note');

      const restarted = await start();
      const { body: refunded } = await order(restarted.url, 'getOrder', [paidOrderId], buyer.token).expect(200);
      expect(refunded.status).toBe('REFUNDED');
      expect(await restarted.server.logged('credit-note-retry: 1 refunded order(s) got their credit notes')).toBe(true);
      const documents = await documentsOf(restarted.url, paidOrderId);
      expect(documents.map(({ kind }) => kind).sort()).toEqual(['buyer-to-vendor', 'credit-note']);
      await restarted.server.stop();
    },
    TIMEOUT_MS,
  );
});
