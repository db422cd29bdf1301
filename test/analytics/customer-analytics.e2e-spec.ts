import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { UserAccounts } from '../../src/auth/users/user-accounts';
import { Role } from '../../src/common/principal';
import { CustomerActivityRecorder } from '../../src/services/customer-analytics/customer-activity-recorder';
import { CustomerActivityType } from '../../src/services/customer-analytics/customer-activity.schema';
import { monthLabels, startOfMonthUtc } from '../../src/services/customer-analytics/monthly-chart';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

const BEAN = 'customerAnalyticsServiceImpl';
const { LOGIN, PRODUCT_VIEW, CART_CHANGE, CHECKOUT } = CustomerActivityType;

interface Chart {
  labels: string[];
  datasets: { label: string; data: number[] }[];
}

describe('customerAnalyticsServiceImpl', () => {
  let t: TestApp;
  let admin: string;
  let db: Connection;
  let recorder: CustomerActivityRecorder;
  let stomp: TestStompClient;

  const call = (fn: string, args: unknown[] = [], token: string | null = admin) =>
    t.callBean(BEAN, fn, args, { token: token ?? undefined });
  const figures = async <T>(fn: string): Promise<T> => {
    const res = await call(fn);
    expect(res.status).toBe(200);
    return res.body as T;
  };

  const next = (topic: string) => stomp.next<{ event: string; id: string; data: { type: string } }>(topic);

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    db = t.app.get<Connection>(getConnectionToken());
    recorder = t.app.get(CustomerActivityRecorder);
    stomp = await TestStompClient.connect(t.url, { token: admin });
  });

  afterAll(async () => {
    await stomp.disconnect();
    await t.stop();
  });

  describe('getCustomerActivity', () => {
    const alice = new Types.ObjectId().toString();
    const bob = new Types.ObjectId().toString();

    it('should publish each recorded activity on the customer topic', async () => {
      const topic = `/topic/customer/${alice}`;
      await stomp.subscribe(topic);
      await recorder.record(alice, LOGIN);
      await recorder.record(alice, PRODUCT_VIEW, { productId: 'p-1', note: 'a.b*(c' });
      await recorder.record(alice, CART_CHANGE, { productId: 'p-1', quantity: 2 });
      await recorder.record(bob, CHECKOUT, { orderId: 'o-1' });

      const events = [await next(topic), await next(topic), await next(topic)];
      expect(events.map((e) => [e.event, e.id, e.data.type])).toEqual([
        ['customer.activity', alice, LOGIN],
        ['customer.activity', alice, PRODUCT_VIEW],
        ['customer.activity', alice, CART_CHANGE],
      ]);
    });

    it('should let the customer follow their own topic', async () => {
      const account = { username: 'dave', email: 'dave@example.test', password: 'Pw-12345678' };
      const dave = await t.app.get(UserAccounts).create(account);
      const topic = `/topic/customer/${dave.id}`;
      const token = t.tokenFor(Role.USER, { id: dave.id, username: 'dave' });
      const own = await TestStompClient.connect(t.url, { token });
      try {
        await own.subscribe(topic);
        await recorder.record(dave.id, PRODUCT_VIEW, { productId: 'p-2' });
        expect(await own.next(topic)).toMatchObject({ id: dave.id, data: { type: PRODUCT_VIEW } });
      } finally {
        await own.disconnect();
      }
    });

    it("should page one customer's activity, newest first", async () => {
      const res = await call('getCustomerActivity', [{ query: { customerId: alice }, limit: 2 }]);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ totalElements: 3, totalPages: 2, size: 2, number: 0, first: true, last: false });
      expect(res.body.content.map((a: { type: string }) => a.type)).toEqual([CART_CHANGE, PRODUCT_VIEW]);

      const second = await call('getCustomerActivity', [{ query: { customerId: alice }, limit: 2, page: 1 }]);
      const oldest = { type: LOGIN, customerId: alice };
      expect(second.body).toMatchObject({ numberOfElements: 1, last: true, content: [oldest] });
    });

    it('should filter by type and sort ascending on request', async () => {
      const res = await call('getCustomerActivity', [
        { query: { type: CHECKOUT, customerId: bob }, sortName: 'at', sortDirection: 'ASC' },
      ]);
      expect(res.body).toMatchObject({ totalElements: 1, content: [{ type: CHECKOUT, data: { orderId: 'o-1' } }] });
    });

    it('should match the search term literally', async () => {
      const literal = await call('getCustomerActivity', [{ searchTerm: 'CART_CH', query: { customerId: alice } }]);
      expect(literal.body.totalElements).toBe(1);
      const pattern = await call('getCustomerActivity', [{ searchTerm: '.*', query: { customerId: alice } }]);
      expect(pattern.body.totalElements).toBe(0);
    });

    it('should refuse operators, unknown fields and a non-map request', async () => {
      expect((await call('getCustomerActivity', [{ query: { customerId: { $ne: null } } }])).status).toBe(400);
      expect((await call('getCustomerActivity', [{ query: { 'data.secret': 'x' } }])).status).toBe(400);
      expect((await call('getCustomerActivity', [{ limit: 'all' }])).status).toBe(400);
      expect((await call('getCustomerActivity', ['x'])).status).toBe(400);
    });
  });

  describe('activity from real actions', () => {
    it('should record a customer login, and no administrator login', async () => {
      const users = t.app.get(UserAccounts);
      const password = 'Secret-pass-1';
      const customer = await users.create({ username: 'carol', email: 'carol@example.test', password });
      await users.create({ username: 'root2', email: 'root2@example.test', password, role: Role.ADMIN });
      const topic = `/topic/customer/${customer.id}`;
      await stomp.subscribe(topic);

      for (const username of ['carol', 'root2']) {
        const login = await t.http.post('/api/v1/auth/token').send({ username, password });
        expect(login.status).toBe(200);
      }

      expect(await next(topic)).toMatchObject({ event: 'customer.activity', data: { type: LOGIN } });
      const res = await call('getCustomerActivity', [{ query: { type: LOGIN }, limit: 200 }]);
      const ids = res.body.content.map((activity: { customerId: string }) => activity.customerId);
      expect(ids).toContain(customer.id);
      const admin2 = await users.findByUsername('root2');
      expect(ids).not.toContain(admin2?.id);
    });
  });

  describe('getRegisteredCustomersChart', () => {
    it('should count USER registrations of each of the last 12 months', async () => {
      const before = await figures<Chart>('getRegisteredCustomersChart');
      const now = new Date();
      const monthsAgo = (months: number) => new Date(startOfMonthUtc(now, months).getTime() + 36e5);
      await insertUsers([
        [Role.USER, monthsAgo(0)],
        [Role.USER, monthsAgo(0)],
        [Role.USER, monthsAgo(2)],
        [Role.USER, monthsAgo(11)],
        [Role.USER, monthsAgo(12)],
        [Role.ADMIN, monthsAgo(0)],
      ]);

      const after = await figures<Chart>('getRegisteredCustomersChart');
      expect(after.labels).toEqual(monthLabels(now, 12));
      expect(after.labels[11]).toBe(now.toISOString().slice(0, 7));
      expect(after.datasets).toHaveLength(1);
      const added = after.datasets[0].data.map((count, i) => count - before.datasets[0].data[i]);
      expect(added).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2]);
    });
  });

  describe('registered companies', () => {
    beforeAll(async () => {
      await insertProfiles([
        ['COMPANY', 'DE'],
        ['COMPANY', 'DE'],
        ['SELLER', 'FR'],
        ['COMPANY', undefined],
        ['BUYER', 'DE'],
      ]);
    });

    it('should count companies by country, those without one as UNKNOWN', async () => {
      const byCountry = await figures<Record<string, number>>('getRegisteredCompaniesByCountry');
      expect(byCountry).toMatchObject({ DE: 2, FR: 1, UNKNOWN: 1 });
      expect(await profileCount({ type: { $in: ['COMPANY', 'SELLER'] } })).toBe(sum(byCountry));
    });

    it('should count companies by type', async () => {
      const byType = await figures<Record<string, number>>('getRegisteredCompaniesByType');
      expect(byType).toEqual({
        COMPANY: await profileCount({ type: 'COMPANY' }),
        SELLER: await profileCount({ type: 'SELLER' }),
      });
      expect(byType.COMPANY).toBeGreaterThanOrEqual(3);
    });
  });

  describe('access', () => {
    it.each(['getRegisteredCustomersChart', 'getRegisteredCompaniesByCountry', 'getRegisteredCompaniesByType'])(
      'should refuse %s to a USER (403) and without a token (401)',
      async (fn) => {
        const forbidden = await call(fn, [], t.tokenFor(Role.USER));
        expect(forbidden.status).toBe(403);
        expect(forbidden.body.error).toBe('Access denied');
        expect((await call(fn, [], null)).status).toBe(401);
      },
    );
  });

  async function insertUsers(users: [Role, Date][]): Promise<void> {
    await db.collection('users').insertMany(
      users.map(([role, createdAt]) => {
        const name = `u${new Types.ObjectId().toString()}`;
        const email = `${name}@example.test`;
        return { username: name, email, passwordHash: 'x', role, createdAt, updatedAt: createdAt };
      }),
    );
  }

  async function insertProfiles(profiles: [string, string | undefined][]): Promise<void> {
    await db.collection('profiles').insertMany(
      profiles.map(([type, country]) => ({
        type,
        displayName: `${type} ${country}`,
        ...(country ? { country } : {}),
      })),
    );
  }

  function profileCount(filter: Record<string, unknown>): Promise<number> {
    return db.collection('profiles').countDocuments(filter);
  }

  function sum(counts: Record<string, number>): number {
    return Object.values(counts).reduce((total, count) => total + count, 0);
  }
});
