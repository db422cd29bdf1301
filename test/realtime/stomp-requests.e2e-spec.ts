import { Role } from '../../src/common/principal';
import { RepositoryRegistry } from '../../src/common/repository-registry';
import { startTestApp, TestApp } from '../support/test-app';
import { TestStompClient, Transport } from './stomp-client';

type Reply = { actionId?: unknown; status: number; payload?: unknown; error?: string; message?: string };

const USER_REPLIES = '/user/topic/default/json';
const GLOBAL_REPLIES = '/topic/default/json';
const dummyTreeCall = (actionId: string, extra: Record<string, unknown> = {}) => ({
  beanId: 'dummyTree',
  functionName: 'getElements',
  args: [],
  actionId,
  ...extra,
});
const byAction = (actionId: string) => (reply: Reply) => reply.actionId === actionId;

describe('STOMP /request/** destinations', () => {
  let t: TestApp;
  const clients: TestStompClient[] = [];
  const connect = async (...args: Parameters<typeof TestStompClient.connect>) => {
    const client = await TestStompClient.connect(...args);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp();
    const sites = t.app.get(RepositoryRegistry).find('sites')!.model;
    await sites.create([
      { _id: 'shop2', name: 'Second shop' },
      { _id: 'shop3', name: 'Third shop' },
    ]);
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.disconnect())));
  afterAll(async () => t.stop());

  describe('/request/bean', () => {
    it.each<Transport>(['ws', 'sockjs'])('should answer an ADMIN on their user topic over %s', async (transport) => {
      const admin = await connect(t.url, { transport, token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe(USER_REPLIES);
      admin.send('/request/bean', dummyTreeCall('u1'));
      const reply = await admin.next<Reply>(USER_REPLIES, byAction('u1'));
      expect(reply).toEqual({ actionId: 'u1', status: 200, payload: expect.any(Array) });
      const { body } = await t.callBean('dummyTree', 'getElements', [], { token: t.tokenFor(Role.ADMIN) });
      expect(reply.payload).toEqual(body);
    });

    it('should broadcast a GLOBAL reply to every subscriber of the site topic', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      const guest = await connect(t.url, { transport: 'sockjs' });
      await guest.subscribe(GLOBAL_REPLIES);
      admin.send('/request/bean', dummyTreeCall('g1', { eventType: 'GLOBAL' }));
      expect(await guest.next<Reply>(GLOBAL_REPLIES, byAction('g1'))).toMatchObject({ status: 200 });
    });

    it('should send a SHARED reply to /topic/<sharedEndpoint>', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      const watcher = await connect(t.url);
      await watcher.subscribe('/topic/team-a/board');
      admin.send('/request/bean', dummyTreeCall('s1', { eventType: 'SHARED', sharedEndpoint: 'team-a/board' }));
      expect(await watcher.next<Reply>('/topic/team-a/board', byAction('s1'))).toMatchObject({ status: 200 });
    });

    it('should take the site of the reply topic from the SEND frame', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe('/user/topic/shop2/json');
      admin.send('/request/bean', dummyTreeCall('site1'), { 'Site-Context': 'shop2' });
      expect(await admin.next<Reply>('/user/topic/shop2/json', byAction('site1'))).toMatchObject({ status: 200 });
    });

    it('should answer a request for an unknown site with 400 on the session site topic', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe(USER_REPLIES);
      admin.send('/request/bean', dummyTreeCall('nosite'), { 'Site-Context': 'nowhere' });
      expect(await admin.next<Reply>(USER_REPLIES, byAction('nosite'))).toMatchObject({
        status: 400,
        code: 'UNKNOWN_SITE',
      });
    });

    it('should answer a GUEST calling an ADMIN bean with Access denied', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.send('/request/bean', dummyTreeCall('d1'));
      expect(await guest.next<Reply>(USER_REPLIES, byAction('d1'))).toMatchObject({
        status: 403,
        error: 'Access denied',
        code: 'ACCESS_DENIED',
      });
    });

    it('should answer a USER calling an ADMIN bean with Access denied', async () => {
      const user = await connect(t.url, { token: t.tokenFor(Role.USER) });
      await user.subscribe(USER_REPLIES);
      user.send('/request/bean', dummyTreeCall('d2'));
      expect(await user.next<Reply>(USER_REPLIES, byAction('d2'))).toMatchObject({
        status: 403,
        error: 'Access denied',
        code: 'ACCESS_DENIED',
      });
    });

    it.each([
      ['an unknown eventType', { eventType: 'EVERYONE' }, 400],
      ['a SHARED reply without endpoint', { eventType: 'SHARED' }, 400],
      ['a SHARED endpoint with dots', { eventType: 'SHARED', sharedEndpoint: '../jobs' }, 400],
      ['a SHARED endpoint on a protected topic', { eventType: 'SHARED', sharedEndpoint: 'order/1' }, 403],
      ['an unknown function', { functionName: 'nope' }, 400],
    ])('should refuse %s with an error reply to the sender', async (_, extra, status) => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe(USER_REPLIES);
      admin.send('/request/bean', dummyTreeCall('bad', extra));
      expect(await admin.next<Reply>(USER_REPLIES, byAction('bad'))).toMatchObject({ status, path: '/request/bean' });
    });

    it('should answer a body that is not JSON with 400', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.client.publish({ destination: '/request/bean', body: 'not json' });
      expect(await guest.next<Reply>(USER_REPLIES)).toMatchObject({ status: 400, actionId: null });
    });
  });

  describe('other destinations', () => {
    it('should answer an unknown /request destination with 404', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.send('/request/nothing', { actionId: 'n1' });
      expect(await guest.next<Reply>(USER_REPLIES, byAction('n1'))).toMatchObject({ status: 404 });
    });

    it('should refuse a SEND to a broker destination without closing the connection', async () => {
      const guest = await connect(t.url);
      const listener = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      await listener.subscribe('/topic/news');
      guest.client.publish({ destination: '/topic/news', body: 'spoofed', headers: { receipt: 'r-spoof' } });
      expect(await guest.next<Reply>(USER_REPLIES)).toMatchObject({
        status: 403,
        error: 'Access denied',
        actionId: 'r-spoof',
      });
      guest.send('/request/nothing', { actionId: 'still-open' });
      await guest.next<Reply>(USER_REPLIES, byAction('still-open'));
      expect(listener.messages('/topic/news')).toHaveLength(0);
    });
  });

  describe('/request/repository', () => {
    it('should page through the sites as a guest', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.send('/request/repository', {
        repositoryId: 'sites',
        requestType: 'FIND_ALL',
        page: 0,
        size: 2,
        actionId: 'p',
      });
      const reply = await guest.next<Reply>(USER_REPLIES, byAction('p'));
      expect(reply.payload).toMatchObject({
        size: 2,
        number: 0,
        numberOfElements: 2,
        totalElements: expect.any(Number),
      });
    });

    it('should find by id and count', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.send('/request/repository', {
        repositoryId: 'sites',
        requestType: 'FIND_BY_ID',
        id: 'shop3',
        actionId: 'f',
      });
      guest.send('/request/repository', { repositoryId: 'sites', requestType: 'COUNT', actionId: 'c' });
      expect((await guest.next<Reply>(USER_REPLIES, byAction('f'))).payload).toMatchObject({
        _id: 'shop3',
        name: 'Third shop',
      });
      expect((await guest.next<Reply>(USER_REPLIES, byAction('c'))).payload).toBeGreaterThanOrEqual(2);
    });

    it('should let only an ADMIN save and delete', async () => {
      const user = await connect(t.url, { token: t.tokenFor(Role.USER) });
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await Promise.all([user.subscribe(USER_REPLIES), admin.subscribe(USER_REPLIES)]);
      const save = { repositoryId: 'sites', requestType: 'SAVE', entity: { _id: 'shop4', name: 'Fourth' } };
      user.send('/request/repository', { ...save, actionId: 'us' });
      expect(await user.next<Reply>(USER_REPLIES, byAction('us'))).toMatchObject({
        status: 403,
        error: 'Access denied',
        code: 'ACCESS_DENIED',
      });
      admin.send('/request/repository', { ...save, actionId: 'as' });
      expect(await admin.next<Reply>(USER_REPLIES, byAction('as'))).toMatchObject({
        status: 200,
        payload: { _id: 'shop4' },
      });
      admin.send('/request/repository', { repositoryId: 'sites', requestType: 'DELETE', id: 'shop4', actionId: 'ad' });
      expect((await admin.next<Reply>(USER_REPLIES, byAction('ad'))).payload).toEqual({ deletedCount: 1 });
    });

    it('should answer unknown repositories and request types', async () => {
      const guest = await connect(t.url);
      await guest.subscribe(USER_REPLIES);
      guest.send('/request/repository', { repositoryId: 'users', requestType: 'FIND_ALL', actionId: 'u' });
      guest.send('/request/repository', { repositoryId: 'sites', requestType: 'DROP', actionId: 'x' });
      expect(await guest.next<Reply>(USER_REPLIES, byAction('u'))).toMatchObject({ status: 404 });
      expect(await guest.next<Reply>(USER_REPLIES, byAction('x'))).toMatchObject({ status: 400 });
    });
  });

  describe('/request/document', () => {
    const request = (extra: Record<string, unknown>) => ({ collectionName: 'notes', ...extra });

    it('should insert, find, update, count and delete as ADMIN', async () => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe(USER_REPLIES);
      const ask = async (actionId: string, extra: Record<string, unknown>) => {
        admin.send('/request/document', request({ ...extra, actionId }));
        return admin.next<Reply>(USER_REPLIES, byAction(actionId));
      };
      expect((await ask('i', { requestType: 'INSERT', document: { title: 'a', n: 1 } })).payload).toMatchObject({
        insertedCount: 1,
      });
      expect(
        (await ask('u', { requestType: 'UPDATE', filter: { title: 'a' }, update: { $inc: { n: 1 } } })).payload,
      ).toEqual({ matchedCount: 1, modifiedCount: 1 });
      expect((await ask('f', { requestType: 'FIND', filter: { title: 'a' } })).payload).toEqual([
        expect.objectContaining({ title: 'a', n: 2 }),
      ]);
      expect((await ask('c', { requestType: 'COUNT', filter: { n: { $gt: 1 } } })).payload).toBe(1);
      expect((await ask('d', { requestType: 'DELETE', filter: { title: 'a' } })).payload).toEqual({ deletedCount: 1 });
    });

    it.each([
      ['the admin database', { databaseName: 'admin', requestType: 'FIND' }, 403],
      ['another database', { databaseName: 'elsewhere', requestType: 'FIND' }, 403],
      ['$where', { requestType: 'FIND', filter: { $where: 'this.n > 1' } }, 400],
      [
        '$function inside $expr',
        { requestType: 'FIND', filter: { $expr: { $function: { body: 'return 1', args: [], lang: 'js' } } } },
        400,
      ],
      ['a system collection', { requestType: 'FIND', collectionName: 'system.users' }, 400],
      ['a DELETE without filter', { requestType: 'DELETE' }, 400],
    ])('should refuse %s', async (_, extra, status) => {
      const admin = await connect(t.url, { token: t.tokenFor(Role.ADMIN) });
      await admin.subscribe(USER_REPLIES);
      admin.send('/request/document', request({ ...extra, actionId: 'r' }));
      expect(await admin.next<Reply>(USER_REPLIES, byAction('r'))).toMatchObject({ status });
    });

    it('should refuse reads and writes below ADMIN', async () => {
      const user = await connect(t.url, { token: t.tokenFor(Role.USER) });
      await user.subscribe(USER_REPLIES);
      user.send('/request/document', request({ requestType: 'FIND', actionId: 'uf' }));
      expect(await user.next<Reply>(USER_REPLIES, byAction('uf'))).toMatchObject({
        status: 403,
        error: 'Access denied',
        code: 'ACCESS_DENIED',
      });
    });
  });
});

describe('STOMP bean call rate limit', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { BEAN_RATE_LIMIT: '3' } })));
  afterAll(async () => t.stop());

  it('should share the per-principal budget of REST bean calls', async () => {
    const token = t.tokenFor(Role.ADMIN);
    await t.callBean('dummyTree', 'getElements', [], { token }).expect(200);
    await t.callBean('dummyTree', 'getElements', [], { token }).expect(200);
    const admin = await TestStompClient.connect(t.url, { token });
    await admin.subscribe(USER_REPLIES);
    admin.send('/request/bean', dummyTreeCall('third'));
    expect(await admin.next<Reply>(USER_REPLIES, byAction('third'))).toMatchObject({ status: 200 });
    admin.send('/request/bean', dummyTreeCall('fourth'));
    expect(await admin.next<Reply>(USER_REPLIES, byAction('fourth'))).toMatchObject({ status: 429 });
    await admin.disconnect();
  });
});
