import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Role } from '../../src/common/principal';
import { assertErrorBody } from '../fuzz/support/fuzz-http';
import { startTestApp, TestApp } from '../support/test-app';

/** JSON text of `levels` nested arrays or objects around a string; built as text, as an attacker would send it. */
function nestedJson(levels: number, kind: 'array' | 'object'): string {
  const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
  return `${open.repeat(levels)}"x"${close.repeat(levels)}`;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Every client mistake of issue 25 is a 4xx in the DESIGN §3 shape, never a 500 or a connection reset. */
describe('Client mistakes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_EMAIL_FLOWS: 'true' } });
  });

  afterAll(async () => {
    await t.stop();
  });

  const send = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${t.url}${path}`, init);
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text: await response.text(),
    };
  };

  const postJson = (path: string, body: string, headers: Record<string, string> = {}) =>
    send(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Lang-Context': 'en', 'Site-Context': 'default', ...headers },
      body,
    });

  describe('JSON nesting', () => {
    it.each([
      ['/api/v1/auth/token', (deep: string) => `{"username":${deep},"password":"x"}`],
      ['/api/v1/auth/register', (deep: string) => `{"username":${deep},"email":"a@b.test","password":"long-password"}`],
      [
        '/api/v1/bean/request',
        (deep: string) => `{"beanId":"dummyTree","functionName":"getElements","args":[${deep}]}`,
      ],
      ['/api/v1/files', (deep: string) => deep],
    ])('should answer a 5,000-level body on %s with a 400 before any route', async (path, body) => {
      for (const kind of ['array', 'object'] as const) {
        const answer = await postJson(path, body(nestedJson(5000, kind)));
        expect(answer.status).toBe(400);
        assertErrorBody(answer.text, 400);
        expect(JSON.parse(answer.text)).toMatchObject({ message: expect.stringContaining('128 levels'), path });
      }
    });

    it('should let bodies within the limit reach the route, which answers for itself', async () => {
      const answer = await postJson(
        '/api/v1/bean/request',
        `{"beanId":"dummyTree","functionName":"getElements","args":[${nestedJson(100, 'array')}]}`,
        { Authorization: `Bearer ${t.tokenFor(Role.ADMIN)}` },
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ message: 'Arguments may be nested at most 64 levels deep' });
    });

    it('should still serve ordinary calls', async () => {
      await t.callBean('dummyTree', 'getElements', [], { token: t.tokenFor(Role.ADMIN) }).expect(200);
    });
  });

  describe('SockJS', () => {
    /** Opens an xhr-polling session; its first poll answers `o` (open). */
    async function openSession(id: string): Promise<void> {
      expect(await send(`/sock/000/${id}/xhr`, { method: 'POST' })).toMatchObject({ status: 200, text: 'o\n' });
    }

    const xhrSend = (id: string, body: string | Buffer | ReadableStream<Uint8Array>) =>
      send(`/sock/000/${id}/xhr_send`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body,
        // a stream is sent chunked; fetch requires saying so
        ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
      } as RequestInit);

    it.each([
      ['garbage', 'garbage', 'Broken JSON encoding.'],
      ['an empty body', '', 'Payload expected.'],
      ['JSON that is not an array', '{"a":1}', 'Payload expected.'],
    ])('should answer xhr_send with %s with a 400, and keep the session', async (what, body, message) => {
      const id = `mistake-${what.replace(/\W/g, '-')}`;
      await openSession(id);
      const answer = await xhrSend(id, body);
      expect(answer.status).toBe(400);
      assertErrorBody(answer.text, 400);
      expect(JSON.parse(answer.text)).toMatchObject({ message });
      expect((await xhrSend(id, JSON.stringify(['CONNECT\naccept-version:1.2\n\n\0']))).status).toBe(204);
      const poll = await send(`/sock/000/${id}/xhr`, { method: 'POST' });
      expect(poll.text).toMatch(/^a\["CONNECTED\\n/);
    });

    it.each([
      ['/sock/000/cb1/jsonp', 'no callback'],
      ['/sock/000/cb2/jsonp?c=%3Cscript%3E', 'a callback with markup'],
      ['/sock/000/cb3/htmlfile?c=bad%20callback', 'a callback with a space'],
      [`/sock/000/cb4/jsonp?c=${'x'.repeat(33)}`, 'a callback too long'],
      ['/sock/000/cb5/htmlfile', 'no callback'],
    ])('should answer %s (%s) with a 400 in the error shape', async (path) => {
      const answer = await send(path);
      expect(answer.status).toBe(400);
      expect(answer.contentType).toContain('application/json');
      assertErrorBody(answer.text, 400);
    });

    it('should answer xhr_send to an unknown session with a 404 in the error shape', async () => {
      const answer = await xhrSend('nobody-here', JSON.stringify(['x']));
      expect(answer.status).toBe(404);
      assertErrorBody(answer.text, 404);
    });

    it.each([
      ['with its Content-Length', false],
      ['sent in chunks', true],
    ])('should answer a body above 256 KiB %s with a 413, not a reset', async (_, chunked) => {
      const id = chunked ? 'large-chunked' : 'large-length';
      await openSession(id);
      const frame = `SEND\ndestination:/request/bean\n\n${'x'.repeat(300 * 1024)}\0`;
      const bytes = Buffer.from(JSON.stringify([frame]));
      const body = chunked ? streamOf(bytes) : bytes;
      const answer = await xhrSend(id, body);
      expect(answer.status).toBe(413);
      assertErrorBody(answer.text, 413);
      // no part of it reached the session, which still takes frames
      expect((await xhrSend(id, JSON.stringify(['CONNECT\naccept-version:1.2\n\n\0']))).status).toBe(204);
      expect((await send(`/sock/000/${id}/xhr`, { method: 'POST' })).text).toMatch(/^a\["CONNECTED\\n/);
    });
  });

  describe('sandbox provider pages', () => {
    const markup = '%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E';

    it.each(['/api/v1/cardpayment/sandbox/3ds', '/api/v1/altpayment/sandbox', '/api/v1/connect/onboarding'])(
      'should answer an unknown id under %s as JSON, never as HTML',
      async (page) => {
        const answer = await send(`${page}/${markup}`);
        expect(answer.status).toBe(404);
        expect(answer.contentType).toBe('application/json; charset=utf-8');
        assertErrorBody(answer.text, 404);
      },
    );
  });

  describe('hidden folders in content paths', () => {
    const admin = () => t.tokenFor(Role.ADMIN);
    const save = (name: string, path: string) =>
      t.callBean('fileManagerServiceMock', 'saveContentToFile', [name, path, 'broken'], { token: admin() });

    it.each([
      ['HEAD', '.git'],
      ['config', 'blog/.git'],
      ['x.html', '.hidden/pages'],
      ['.gitignore', ''],
      ['.htaccess', 'blog'],
    ])('should refuse %s in %j with a 400 and leave version control intact', async (name, path) => {
      await t.callBean('vcsProvider', 'init', [], { token: admin() }).expect(200);
      const head = join(t.config.dataDir, 'sites', 'default', 'content', '.git', 'HEAD');
      const before = readFileSync(head, 'utf8');
      const answer = await save(name, path).expect(400);
      expect(answer.body).toMatchObject({ message: expect.stringContaining('starting with "."') });
      expect(readFileSync(head, 'utf8')).toBe(before);
    });

    it('should still save into ordinary folders', async () => {
      await save('post.html', 'blog/2026').expect(200);
      const saved = join(t.config.dataDir, 'sites', 'default', 'content', 'blog', '2026', 'post.html');
      expect(readFileSync(saved, 'utf8')).toBe('broken');
    });
  });
});

/** A body fetch sends chunked (no Content-Length): the limit must hold while the bytes arrive. */
function streamOf(bytes: Buffer): ReadableStream<Uint8Array> {
  const chunkBytes = 16 * 1024;
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}
