import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Role } from '../src/common/principal';
import { Site } from '../src/sites/site.schema';
import { ProbeModule } from './support/probe.beans';
import { startTestApp, TestApp } from './support/test-app';

describe('Bean gateway (POST /api/v1/bean/request)', () => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;

  beforeAll(async () => {
    t = await startTestApp({ imports: [ProbeModule] });
    adminToken = t.tokenFor(Role.ADMIN);
    userToken = t.tokenFor(Role.USER);
  });

  afterAll(async () => {
    await t.stop();
  });

  describe('argument forms', () => {
    it('should accept one indexed object', async () => {
      const res = await t.callBean('probe', 'typed', [{ '0': 'a', '1': 5 }]).expect(200);
      expect(res.body).toEqual({ text: 'a', count: 5 });
    });

    it('should accept one indexed object per argument, in any order', async () => {
      const res = await t.callBean('probe', 'typed', [{ '1': 5 }, { '0': 'a' }]).expect(200);
      expect(res.body).toEqual({ text: 'a', count: 5 });
    });

    it('should accept positional arguments', async () => {
      const res = await t.callBean('probe', 'typed', ['a', 5]).expect(200);
      expect(res.body).toEqual({ text: 'a', count: 5 });
    });

    it('should read an empty array as no arguments', async () => {
      await t.callBean('probe', 'ownCart', []).expect(400);
      const res = await t.callBean('probe', 'cart', []).expect(200);
      expect(res.body).toBe('own');
    });

    it('should read objects with gaps in their indices as positional', async () => {
      const res = await t.callBean('probe', 'map', [{ '1': 'x' }]).expect(200);
      expect(res.body).toEqual({ '1': 'x' });
    });

    it('should read an empty object as one positional Map', async () => {
      const res = await t.callBean('probe', 'map', [{}]).expect(200);
      expect(res.body).toEqual({});
    });
  });

  describe('overloads', () => {
    it.each([
      [[], 'own'],
      [['b-1'], 'buyer:b-1'],
      [[{ items: [] }], 'map'],
      [['a', 'b', 'c'], 'a+b+c'],
      [[{ '0': 'a', '1': 'b', '2': 'c' }], 'a+b+c'],
    ])('should pick the overload for %j', async (args, expected) => {
      const res = await t.callBean('probe', 'cart', args, { token: adminToken }).expect(200);
      expect(res.body).toBe(expected);
    });

    it('should answer an unmatched argument count with 400 listing the signatures', async () => {
      const res = await t.callBean('probe', 'cart', ['a', 'b']).expect(400);
      expect(res.body.message).toContain('cart(String, String, String)');
      expect(res.body.message).toContain('cart(Map)');
    });

    it('should answer unmatched argument types with 400 listing the signatures', async () => {
      const res = await t.callBean('probe', 'cart', [true], { token: adminToken }).expect(400);
      expect(res.body.message).toMatch(
        /No signature of 'cart' matches the call cart\(boolean\); available: .*cart\(\)/,
      );
    });

    it('should check the role of the chosen overload', async () => {
      await t.callBean('probe', 'cart', ['b-1']).expect(401);
      await t.callBean('probe', 'cart', ['b-1'], { token: userToken }).expect(403);
    });
  });

  describe('argument conversion', () => {
    it.each([
      ['integer string', ['a', '42'], 42],
      ['negative integer', ['a', -7], -7],
      ['largest int', ['a', 2147483647], 2147483647],
    ])('should accept an int given as %s', async (_label, args, expected) => {
      const res = await t.callBean('probe', 'typed', args).expect(200);
      expect(res.body.count).toBe(expected);
    });

    it.each([
      ['a decimal', 1.5, 'number'],
      ['a decimal string', '1.5', 'string'],
      ['a number beyond int', 2147483648, 'integer'],
      ['a boolean', true, 'boolean'],
      ['null', null, 'null'],
      ['an object', {}, 'object'],
      ['an empty string', '', 'string'],
    ])('should refuse %s for an int with 400 naming index and types', async (_label, value, received) => {
      const res = await t.callBean('probe', 'typed', ['a', value]).expect(400);
      expect(res.body.message).toBe(`Argument 1: expected int, received ${received}`);
      expect(res.body.details).toEqual([{ field: 'args[1]', message: `expected int, received ${received}` }]);
    });

    it.each([[5], [null], [['a']]])('should refuse %j for a String', async (value) => {
      const res = await t.callBean('probe', 'typed', [value, 1]).expect(400);
      expect(res.body.message).toMatch(/^Argument 0: expected String, received /);
    });

    it('should accept true and false for a boolean', async () => {
      expect((await t.callBean('probe', 'flag', [false]).expect(200)).body).toEqual({ value: false });
      expect((await t.callBean('probe', 'flag', [true]).expect(200)).body).toEqual({ value: true });
    });

    it.each([['true'], [1], [null]])('should refuse %j for a boolean', async (value) => {
      const res = await t.callBean('probe', 'flag', [value]).expect(400);
      expect(res.body.message).toMatch(/^Argument 0: expected boolean, received /);
    });

    it('should pass a Map through as a plain object', async () => {
      const value = { a: 1, nested: { list: [1, 'x'] } };
      expect((await t.callBean('probe', 'map', [value]).expect(200)).body).toEqual(value);
    });

    it.each([[['a']], ['text'], [null]])('should refuse %j for a Map', async (value) => {
      const res = await t.callBean('probe', 'map', [value]).expect(400);
      expect(res.body.message).toMatch(/^Argument 0: expected Map, received /);
    });

    it('should accept an IdList of strings, also empty', async () => {
      expect((await t.callBean('probe', 'ids', [['a', 'b']]).expect(200)).body).toEqual(['a', 'b']);
      expect((await t.callBean('probe', 'ids', [[]]).expect(200)).body).toEqual([]);
    });

    it.each([[['a', 1]], ['a'], [{}]])('should refuse %j for an IdList', async (value) => {
      const res = await t.callBean('probe', 'ids', [value]).expect(400);
      expect(res.body.message).toMatch(/^Argument 0: expected IdList, received /);
    });

    it('should validate a known Map shape into its DTO with defaults applied', async () => {
      const res = await t.callBean('probe', 'job', [{ '0': { type: 'import' } }]).expect(200);
      expect(res.body).toEqual({ isDto: true, type: 'import', total: 0, confirm: false });
    });

    it('should drop fields the DTO does not declare', async () => {
      const res = await t.callBean('probe', 'job', [{ type: 'import', extra: 'x' }]).expect(200);
      expect(res.body).not.toHaveProperty('extra');
    });

    it('should list every field problem of a known Map shape', async () => {
      const res = await t.callBean('probe', 'job', [{ total: -1, confirm: 'yes' }]).expect(400);
      expect(res.body.message).toBe('Validation failed');
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        'args[0].confirm',
        'args[0].total',
        'args[0].type',
      ]);
    });
  });

  describe('hostile keys', () => {
    it.each([
      ['__proto__ at the top', '{"__proto__": {"admin": true}}'],
      ['constructor nested', '{"a": {"b": [{"constructor": 1}]}}'],
      ['prototype in an indexed object', '{"0": {"prototype": {}}}'],
    ])('should refuse %s with 400', async (_label, json) => {
      const body = `{"beanId":"probe","functionName":"map","args":[${json}]}`;
      const res = await t.http
        .post('/api/v1/bean/request')
        .set({ 'Content-Type': 'application/json', 'Lang-Context': 'en', 'Site-Context': 'default' })
        .send(body)
        .expect(400);
      expect(res.body.message).toMatch(/^The key '(__proto__|constructor|prototype)' is not allowed in arguments$/);
    });
  });

  describe('envelope and headers', () => {
    it.each([
      [{ functionName: 'map', args: [] }, 'beanId'],
      [{ beanId: 'probe', functionName: 7, args: [] }, 'functionName'],
      [{ beanId: 'probe', functionName: 'nothing' }, 'args'],
      [{ beanId: 'probe', functionName: 'nothing', args: {} }, 'args'],
      [{ beanId: 'probe', functionName: 'nothing', args: [], scope: 'REQUEST' }, 'scope'],
    ])('should refuse the envelope %j naming %s', async (envelope, field) => {
      const res = await t.http
        .post('/api/v1/bean/request')
        .set({ 'Lang-Context': 'en', 'Site-Context': 'default' })
        .send(envelope)
        .expect(400);
      expect(res.body.details.map((d: { field: string }) => d.field)).toEqual([field]);
    });

    it.each(['PROTOTYPE', 'SINGLETON'])('should accept scope %s', async (scope) => {
      await t.http
        .post('/api/v1/bean/request')
        .set({ 'Lang-Context': 'en', 'Site-Context': 'default' })
        .send({ beanId: 'probe', functionName: 'nothing', args: [], scope })
        .expect(200);
    });

    it.each(['Lang-Context', 'Site-Context'])('should refuse a call without %s naming it', async (header) => {
      const call = t.http.post('/api/v1/bean/request');
      if (header !== 'Lang-Context') call.set('Lang-Context', 'en');
      if (header !== 'Site-Context') call.set('Site-Context', 'default');
      const res = await call.send({ beanId: 'probe', functionName: 'nothing', args: [] }).expect(400);
      expect(res.body.message).toBe(`Missing header ${header}`);
    });

    it('should refuse an unknown site', async () => {
      const res = await t.callBean('probe', 'nothing', [], { site: 'elsewhere' }).expect(400);
      expect(res.body.message).toContain("unknown site 'elsewhere'");
    });

    it('should accept a site added after start-up', async () => {
      await t.callBean('probe', 'nothing', [], { site: 'second-shop' }).expect(400);
      await t.app.get<Model<Site>>(getModelToken(Site.name)).create({ _id: 'second-shop', name: 'Second shop' });
      const res = await t.callBean('probe', 'context', [], { site: 'second-shop' }).expect(200);
      expect(res.body.site).toBe('second-shop');
    });

    it('should refuse a malformed language code', async () => {
      const res = await t.callBean('probe', 'nothing', [], { lang: 'english!' }).expect(400);
      expect(res.body.message).toContain('Lang-Context');
    });

    it('should give the bean the language, site and principal of the request', async () => {
      const res = await t.callBean('probe', 'context', [], { lang: 'de-CH', token: userToken }).expect(200);
      expect(res.body).toMatchObject({
        lang: 'de-CH',
        site: 'default',
        principal: { role: 'USER', username: 'test-user' },
      });
      expect(res.body.requestId).toBe(res.headers['x-request-id']);
    });

    it('should answer JSON with its exact length, the security headers and the rate limit headers', async () => {
      const res = await t.callBean('probe', 'context', [], { lang: 'de-CH' }).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-ratelimit-remaining-bean-calls']).toMatch(/^\d+$/);
    });
  });

  describe('unknown targets', () => {
    it('should answer an unknown bean with 404', async () => {
      const res = await t.callBean('nope', 'x', []).expect(404);
      expect(res.body.message).toBe("Unknown bean 'nope'");
    });

    it.each(['nope', 'notExposed', 'constructor', 'toString', '__proto__', 'hasOwnProperty'])(
      'should answer the function %s with 400',
      async (functionName) => {
        const res = await t.callBean('probe', functionName, []).expect(400);
        expect(res.body.message).toBe(`Bean 'probe' has no function '${functionName}'`);
      },
    );
  });

  describe('results', () => {
    it('should answer void with null', async () => {
      const res = await t
        .callBean('probe', 'nothing', [])
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(res.text).toBe('null');
    });

    it('should give pages the Spring shape', async () => {
      const res = await t.callBean('probe', 'page', []).expect(200);
      expect(res.body).toEqual({
        content: ['a', 'b'],
        totalElements: 5,
        totalPages: 3,
        size: 2,
        number: 0,
        numberOfElements: 2,
        first: true,
        last: false,
        empty: false,
      });
    });

    it('should write dates as ISO-8601', async () => {
      expect((await t.callBean('probe', 'date', []).expect(200)).body).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    });

    it('should give bytes as base64 by default', async () => {
      const res = await t
        .callBean('probe', 'bytes', [])
        .expect(200)
        .expect('Content-Type', /application\/json/);
      expect(Buffer.from(res.body as string, 'base64').toString()).toBe('%PDF-1.4 probe');
    });

    it.each(['application/pdf', 'application/octet-stream'])('should give raw bytes for Accept %s', async (accept) => {
      const res = await t
        .callBean('probe', 'bytes', [], { accept })
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200)
        .expect('Content-Type', accept);
      expect((res.body as Buffer).toString()).toBe('%PDF-1.4 probe');
    });
  });

  describe('errors', () => {
    it('should answer with the error body shape and echo the request id', async () => {
      const res = await t.callBean('nope', 'x', []).set('X-Request-Id', 'trace-123').expect(404);
      expect(res.headers['x-request-id']).toBe('trace-123');
      expect(res.body).toEqual({
        code: 'UNKNOWN_BEAN',
        error: 'Not Found',
        message: "Unknown bean 'nope'",
        status: 404,
        path: '/api/v1/bean/request',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        requestId: 'trace-123',
      });
    });

    it('should hide internals of unexpected errors', async () => {
      const res = await t.callBean('probe', 'fails', []).expect(500);
      expect(res.body).toMatchObject({ error: 'Internal Server Error', message: 'Internal server error', status: 500 });
      expect(JSON.stringify(res.body)).not.toContain('secret internals');
    });

    it('should answer malformed JSON with 400', async () => {
      const res = await t.http
        .post('/api/v1/bean/request')
        .set('Content-Type', 'application/json')
        .send('{"beanId":')
        .expect(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message: expect.stringContaining('JSON') });
    });
  });

  describe('access', () => {
    it('should let anyone call a GUEST method', async () => {
      await t.callBean('probe', 'nothing', []).expect(200);
    });

    it('should refuse an invalid token even on a GUEST method', async () => {
      await t.callBean('probe', 'nothing', [], { token: 'not-a-token' }).expect(401);
    });

    it('should answer a USER method with 401 without a token and 200 with one', async () => {
      await t.callBean('probe', 'forUsers', []).expect(401);
      await t.callBean('probe', 'forUsers', [], { token: userToken }).expect(200);
      await t.callBean('probe', 'forUsers', [], { token: adminToken }).expect(200);
    });

    it('should answer an ADMIN bean with 401 without a token, 403 for a USER, 200 for an ADMIN', async () => {
      await t.callBean('probeAdmin', 'secret', []).expect(401);
      const refused = await t.callBean('probeAdmin', 'secret', [], { token: userToken }).expect(403);
      expect(refused.body.error).toBe('Access denied');
      await t.callBean('probeAdmin', 'secret', [], { token: adminToken }).expect(200);
    });

    it('should not reveal the functions of a bean to callers below its lowest role', async () => {
      await t.callBean('dummyTree', 'nope', []).expect(401);
      await t.callBean('dummyTree', 'nope', [], { token: userToken }).expect(403);
      await t.callBean('dummyTree', 'nope', [], { token: adminToken }).expect(400);
    });

    it('should let a GUEST call the GUEST method of an ADMIN bean and see no principal', async () => {
      expect((await t.callBean('probeAdmin', 'publicInfo', []).expect(200)).body).toBeNull();
      expect((await t.callBean('probeAdmin', 'publicInfo', [], { token: userToken }).expect(200)).body).toBe('USER');
    });
  });

  describe('dummyTree', () => {
    it('should return a tree of elements with id, name and children', async () => {
      const res = await t.callBean('dummyTree', 'getElements', [], { token: adminToken }).expect(200);
      const walk = (elements: unknown[]): number =>
        elements.reduce<number>((count, element) => {
          expect(element).toEqual({ id: expect.any(String), name: expect.any(String), children: expect.any(Array) });
          return count + 1 + walk((element as { children: unknown[] }).children);
        }, 0);
      expect(walk(res.body as unknown[])).toBeGreaterThan(10);
      expect(res.body[0].children[0].children.length).toBeGreaterThan(0);
    });
  });
});
