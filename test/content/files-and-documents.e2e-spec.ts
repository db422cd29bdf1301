import { getConnectionToken } from '@nestjs/mongoose';
import { Connection, Types } from 'mongoose';
import { get } from 'node:http';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { Role } from '../../src/common/principal';
import { insertRawDocuments } from '../support/raw-documents';
import { startTestApp, TestApp } from '../support/test-app';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const STORAGE = 'documentStorageServiceImpl';

/** A GET as a plain HTTP client sees it: status, declared length, bytes received and whether the body completed. */
function rawDownload(url: string): Promise<{ status?: number; declared: number; received: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => (received += chunk.length));
      res.on('error', () => undefined);
      res.on('close', () => {
        resolve({
          status: res.statusCode,
          declared: Number(res.headers['content-length']),
          received,
          complete: res.complete,
        });
      });
    }).on('error', reject);
  });
}

const binaryParser = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('files REST and documentStorageServiceImpl (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let dbName: string;

  const upload = (content: Buffer, filename: string, site = 'default') =>
    t.http
      .post('/api/v1/files')
      .set('Authorization', `Bearer ${admin}`)
      .set('Site-Context', site)
      .attach('file', content, filename);
  const download = (id: string) => t.http.get(`/api/v1/files/${id}`).buffer(true).parse(binaryParser);
  const storage = (fn: string, args: unknown[], token = admin) => t.callBean(STORAGE, fn, args, { token });

  const chunks = () => t.app.get<Connection>(getConnectionToken()).collection('assets.chunks');

  beforeAll(async () => {
    t = await startTestApp({ env: { UPLOAD_MAX_BYTES: String(24 * 1024 * 1024) } });
    ({ token: admin } = await t.createUser({ username: 'editor', role: Role.ADMIN }));
    user = t.tokenFor(Role.USER);
    const connection = t.app.get<Connection>(getConnectionToken());
    dbName = connection.db!.databaseName;
    await connection.collection('sites').insertOne({ _id: 'outlet', name: 'Outlet' } as never);
  });
  afterAll(() => t.stop());

  describe('upload and download', () => {
    it('should stream a 20 MB upload back byte for byte, and serve a Range', async () => {
      const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(20 * 1024 * 1024)]);
      const created = (await upload(big, 'catalogue.pdf').expect(201)).body;
      expect(created).toMatchObject({
        filename: 'catalogue.pdf',
        contentType: 'application/pdf',
        length: big.length,
        site: 'default',
      });

      const full = await download(created.id)
        .expect(200)
        .expect('Content-Type', 'application/pdf')
        .expect('Accept-Ranges', 'bytes');
      expect(Buffer.compare(full.body as Buffer, big)).toBe(0);
      expect(full.headers['content-disposition']).toBe(
        'inline; filename="catalogue.pdf"; filename*=UTF-8\'\'catalogue.pdf',
      );

      const part = await download(created.id).set('Range', 'bytes=1000-1999').expect(206);
      expect(part.headers['content-range']).toBe(`bytes 1000-1999/${big.length}`);
      expect(Buffer.compare(part.body as Buffer, big.subarray(1000, 2000))).toBe(0);
      const tail = await download(created.id).set('Range', 'bytes=-10').expect(206);
      expect(Buffer.compare(tail.body as Buffer, big.subarray(big.length - 10))).toBe(0);
      await download(created.id)
        .set('Range', `bytes=${big.length + 5}-`)
        .expect(416)
        .expect('Content-Range', `bytes */${big.length}`);

      await download(created.id).set('If-None-Match', full.headers.etag).expect(304);
      await download(created.id).set('If-None-Match', `"other", W/${full.headers.etag}`).expect(304);
      await download(created.id).set('If-None-Match', '"other"').expect(200);
    });

    it('should answer a file whose first chunk cannot be read with a 500, not an empty 200', async () => {
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024 * 1024)]);
      const created = (await upload(pdf, 'broken.pdf').expect(201)).body;
      await chunks().deleteOne({ files_id: new Types.ObjectId(created.id as string), n: 0 });
      const response = await t.http
        .get(`/api/v1/files/${created.id}`)
        .expect(500)
        .expect('Content-Type', /^application\/json/);
      expect(response.body).toEqual({
        code: 'INTERNAL_ERROR',
        error: 'Internal Server Error',
        message: 'Internal server error',
        status: 500,
        path: `/api/v1/files/${created.id}`,
        timestamp: expect.any(String),
        requestId: response.headers['x-request-id'],
      });
      expect(response.headers.etag).not.toBe(`"${created.id}-${pdf.length}"`);
      expect(response.headers['content-disposition']).toBeUndefined();
    });

    it('should cut the connection when a later chunk cannot be read, so the download is visibly incomplete', async () => {
      const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024 * 1024)]);
      const created = (await upload(pdf, 'torn.pdf').expect(201)).body;
      await chunks().deleteOne({ files_id: new Types.ObjectId(created.id as string), n: 2 });
      const result = await rawDownload(`${t.url}/api/v1/files/${created.id}`);
      expect(result).toMatchObject({ status: 200, declared: pdf.length, complete: false });
      expect(result.received).toBeLessThan(pdf.length);
      // The server is fine otherwise.
      await download(created.id).set('Range', 'bytes=0-99').expect(206);
    });

    it('should refuse an upload over the size limit with 413', async () => {
      const res = await upload(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(25 * 1024 * 1024)]), 'huge.pdf');
      expect(res.status).toBe(413);
    });

    it.each([
      [Buffer.from('%PDF-1.7 pretending'), 'photo.png', 'content that does not match the name'],
      [Buffer.from('MZ\x90\x00\x03'), 'tool.exe', 'an executable'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg', 'SVG'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'notes.txt', 'HTML in a text file'],
    ])('should refuse %s as %s (%s) with 415', async (content, name) => {
      await upload(content as Buffer, name).expect(415);
    });

    it('should serve text as UTF-8 for download, never inline', async () => {
      const created = (await upload(Buffer.from('name;price\nrosé;3\n'), 'prices.csv').expect(201)).body;
      const res = await download(created.id).expect(200).expect('Content-Type', 'text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; /);
      expect((res.body as Buffer).toString('utf8')).toBe('name;price\nrosé;3\n');
    });

    it('should store a sanitized name for a hostile one', async () => {
      const created = (await upload(PNG, '../../etc/"evil"\r\nX-Injected: 1;.png').expect(201)).body;
      expect(created.filename).toBe('_evil_X-Injected_ 1_.png');
      const res = await download(created.id).expect(200);
      expect(res.headers['x-injected']).toBeUndefined();
      expect(res.headers['content-type']).toBe('image/png');
    });

    it('should require a file, ADMIN, and a known site', async () => {
      await t.http.post('/api/v1/files').set('Authorization', `Bearer ${admin}`).field('note', 'x').expect(400);
      await t.http.post('/api/v1/files').attach('file', PNG, 'a.png').expect(401);
      await t.http
        .post('/api/v1/files')
        .set('Authorization', `Bearer ${user}`)
        .attach('file', PNG, 'a.png')
        .expect(403);
      await upload(PNG, 'a.png', 'nowhere').expect(400);
    });

    it('should answer 404 for unknown files and 400 for bad ids', async () => {
      await t.http.get('/api/v1/files/0123456789abcdef01234567').expect(404);
      await t.http.get('/api/v1/files/..%2F..%2Fetc%2Fpasswd').expect(400);
    });
  });

  it('should document the file endpoints in OpenAPI', async () => {
    const { paths } = (await t.http.get('/api/v1/openapi.json').expect(200)).body;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/files',
        '/api/v1/files/{id}',
        '/api/v1/assets',
        '/api/v1/reports/{report}',
        '/api/v1/sites/{site}/{file}',
      ]),
    );
    expect(Object.keys(paths['/api/v1/files'].post.requestBody.content)).toEqual(['multipart/form-data']);
  });

  describe('asset listing and removal per site', () => {
    it('should list and remove the assets of the site only', async () => {
      const outlet = (await upload(PNG, 'outlet-logo.png', 'outlet').expect(201)).body;
      const list = (site: string) =>
        t.http.get('/api/v1/assets').set('Authorization', `Bearer ${admin}`).set('Site-Context', site).expect(200);
      expect((await list('outlet')).body.map((a: { filename: string }) => a.filename)).toEqual(['outlet-logo.png']);
      expect((await list('default')).body.map((a: { filename: string }) => a.filename)).not.toContain(
        'outlet-logo.png',
      );
      await t.http.get('/api/v1/assets').set('Authorization', `Bearer ${user}`).expect(403);

      await t.http
        .delete(`/api/v1/files/${outlet.id}`)
        .set('Authorization', `Bearer ${admin}`)
        .set('Site-Context', 'default')
        .expect(404);
      await t.http
        .delete(`/api/v1/files/${outlet.id}`)
        .set('Authorization', `Bearer ${user}`)
        .set('Site-Context', 'outlet')
        .expect(403);
      await t.http
        .delete(`/api/v1/files/${outlet.id}`)
        .set('Authorization', `Bearer ${admin}`)
        .set('Site-Context', 'outlet')
        .expect(204);
      await t.http.get(`/api/v1/files/${outlet.id}`).expect(404);
    });
  });

  describe('documentStorageServiceImpl', () => {
    it('should describe the application database, its collections and buckets', async () => {
      const database = (await storage('getDatabase', [dbName]).expect(200)).body;
      expect(database.name).toBe(dbName);
      expect(database.collections).toEqual(expect.arrayContaining(['sites', 'assets.files']));
      expect(database.buckets).toContain('assets');
      const collections = (await storage('getCollections', [dbName]).expect(200)).body;
      expect(collections).toContainEqual({ name: 'sites', type: 'collection' });
    });

    it('should show a collection with secrets redacted', async () => {
      const sites = (await storage('getCollection', [dbName, 'sites']).expect(200)).body;
      expect(sites).toMatchObject({ database: dbName, name: 'sites', count: 2 });
      const users = (await storage('getCollection', [dbName, 'users']).expect(200)).body;
      for (const document of users.documents) expect(JSON.stringify(document)).not.toMatch(/\$argon2/);
    });

    describe('getCollectionPage', () => {
      const page = (collection: string, number: unknown, size: unknown, token = admin) =>
        storage('getCollectionPage', [dbName, collection, number, size], token);
      type Probe = { _id: string; n: number; secretToken: string; nested: { passwordHash: string } };

      beforeAll(async () => {
        const probes = Array.from({ length: 250 }, (_, n) => ({
          n,
          secretToken: `token-${n}`,
          nested: { passwordHash: `$argon2id$v=19$probe-${n}` },
        }));
        await insertRawDocuments(t, 'paging_probe', probes.slice(0, 125));
        await insertRawDocuments(t, 'paging_probe', probes.slice(125));
      });

      it('should reach every document once, in _id order, in pages of at most 100', async () => {
        const seen: Probe[] = [];
        for (let number = 0; ; number++) {
          const { body } = await page('paging_probe', number, 100).expect(200);
          expect(body).toMatchObject({ page: number, size: 100, total: 250 });
          seen.push(...(body.items as Probe[]));
          if (body.items.length < 100) break;
        }
        expect(seen).toHaveLength(250);
        expect(new Set(seen.map((doc) => doc._id)).size).toBe(250);
        expect(seen.map((doc) => doc.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 250 }, (_, n) => n));
        expect(seen.map((doc) => doc._id)).toEqual(seen.map((doc) => doc._id).sort());

        const small: string[] = [];
        for (let number = 0; number < 36; number++) {
          small.push(...(await page('paging_probe', number, 7).expect(200)).body.items.map((doc: Probe) => doc._id));
        }
        expect(small).toEqual(seen.map((doc) => doc._id));
        expect((await page('paging_probe', 3, 100).expect(200)).body.items).toEqual([]);
      });

      it('should redact secrets at any depth, and never show a password hash', async () => {
        const { body } = await page('paging_probe', 0, 5).expect(200);
        for (const doc of body.items as Probe[]) {
          expect(doc).toMatchObject({ secretToken: '[redacted]', nested: { passwordHash: '[redacted]' } });
        }
        const users = (await page('users', 0, 100).expect(200)).body;
        expect(users.items.length).toBeGreaterThan(0);
        expect(JSON.stringify(users.items)).not.toMatch(/\$argon2/);
      });

      it('should refuse a bad page or size with 400, and keep the database rules', async () => {
        for (const [number, size] of [
          [-1, 10],
          [0, 0],
          [0, 101],
          [0, -5],
          [1.5, 10],
          [0, 'ten'],
          ['{"$gt":0}', 10],
          [null, 10],
        ]) {
          const res = await page('paging_probe', number, size).expect(400);
          expect(res.body).toMatchObject({ status: 400, error: 'Bad Request', path: '/api/v1/bean/request' });
          expect(res.body.requestId).toEqual(expect.any(String));
        }
        await storage('getCollectionPage', ['admin', 'system.users', 0, 10]).expect(403);
        await page('system.views', 0, 10).expect(403);
        await page('no_such_collection', 0, 10).expect(404);
        await page('paging_probe', 0, 10, user).expect(403);
        await t.callBean(STORAGE, 'getCollectionPage', [dbName, 'paging_probe', 0, 10]).expect(401);
      });

      it('should keep getCollection to its first 100 documents', async () => {
        const { body } = await storage('getCollection', [dbName, 'paging_probe']).expect(200);
        expect(body.count).toBe(250);
        expect(body.documents).toHaveLength(100);
      });
    });

    it('should refuse MongoDB system databases with 403 and other databases with 404', async () => {
      for (const name of ['admin', 'local', 'config', 'ADMIN']) {
        const res = await storage('getCollections', [name]).expect(403);
        expect(res.body.error).toBe('Access denied');
        await storage('getCollection', [name, 'system.users']).expect(403);
      }
      await storage('getDatabase', ['someone-elses-db']).expect(404);
      await storage('getCollection', [dbName, 'system.views']).expect(403);
      await storage('getCollection', [dbName, 'no_such_collection']).expect(404);
      await storage('getCollection', [dbName, '$cmd']).expect(400);
    });

    it('should remove a document by id', async () => {
      const connection = t.app.get<Connection>(getConnectionToken());
      const { insertedId } = await connection.collection('scratch').insertOne({ note: 'temporary' });
      await storage('removeDocument', [dbName, 'scratch', insertedId.toHexString()]).expect(200);
      await storage('removeDocument', [dbName, 'scratch', insertedId.toHexString()]).expect(404);
      await storage('removeDocument', [dbName, 'assets.files', insertedId.toHexString()]).expect(400);
      await storage('removeDocument', ['local', 'startup_log', 'x']).expect(403);
    });

    it('should download and remove binaries, one by id or several by filter', async () => {
      const one = (await upload(PNG, 'one.png').expect(201)).body;
      const bytes = (await storage('downloadBinary', [one.id]).expect(200)).body;
      expect(Buffer.compare(Buffer.from(bytes, 'base64'), PNG)).toBe(0);
      const raw = await t
        .callBean(STORAGE, 'downloadBinary', [one.id], { token: admin, accept: 'application/octet-stream' })
        .buffer(true)
        .parse(binaryParser)
        .expect(200);
      expect(Buffer.compare(raw.body as Buffer, PNG)).toBe(0);

      const bucket = (await storage('getBinaryStorage', [dbName, 'assets']).expect(200)).body;
      expect(bucket.files.map((f: { filename: string }) => f.filename)).toContain('one.png');
      await storage('getBinaryStorage', [dbName, 'nothing']).expect(404);
      await storage('getBinaryStorage', ['admin', 'fs']).expect(403);

      await storage('removeBinary', [one.id]).expect(200);
      await storage('removeBinary', [one.id]).expect(404);
      await storage('downloadBinary', [one.id]).expect(404);

      await upload(PNG, 'batch.png').expect(201);
      await upload(PNG, 'batch.png').expect(201);
      await storage('removeBinary', [dbName, 'assets', JSON.stringify({ filename: { $regex: '.*' } })]).expect(400);
      await storage('removeBinary', [dbName, 'assets', JSON.stringify({ $where: '1' })]).expect(400);
      await storage('removeBinary', [dbName, 'assets', '{oops']).expect(400);
      await storage('removeBinary', [dbName, 'assets', JSON.stringify({ filename: 'batch.png' })]).expect(200);
      await storage('removeBinary', [dbName, 'assets', JSON.stringify({ filename: 'batch.png' })]).expect(404);
    });

    it('should require ADMIN', async () => {
      await storage('getDatabase', [dbName], user).expect(403);
      await t.callBean(STORAGE, 'getDatabase', [dbName]).expect(401);
    });
  });
});
