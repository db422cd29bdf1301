import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';
import { pdfPages } from '../support/pdf-text';

describe('PDFServiceImpl and fileManagerServiceMock (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    user = t.tokenFor(Role.USER);
  });
  afterAll(() => t.stop());

  describe('createPdf', () => {
    it('should return a PDF as base64 JSON by default', async () => {
      const res = await t
        .callBean('PDFServiceImpl', 'createPdf', [{ 0: '<h1>Quarterly report</h1>' }], { token: admin })
        .expect(200);
      const pdf = Buffer.from(res.body as string, 'base64');
      expect((await pdfPages(pdf))[0]).toContain('Quarterly report');
    });

    it('should return raw bytes when asked for application/pdf, header and footer on every page', async () => {
      const body = Array.from({ length: 100 }, (_, i) => `<p>Row ${i}</p>`).join('');
      const res = await t
        .callBean('PDFServiceImpl', 'createPdf', ['<p>ACME Ltd</p>', body, '<p>Confidential</p>'], {
          token: admin,
          accept: 'application/pdf',
        })
        .buffer(true)
        .parse((response, done) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200)
        .expect('Content-Type', /application\/pdf/);
      const pages = await pdfPages(res.body as Buffer);
      expect(pages.length).toBeGreaterThan(1);
      for (const page of pages) expect(page).toMatch(/ACME Ltd[\s\S]*Confidential/);
    });

    it.each([
      ['not base64', 'data:image/png;base64,!!!!'],
      ['no image format', 'data:image/png;base64,AAAA'],
      ['empty', 'data:image/jpeg;base64,'],
      ['a truncated PNG', 'data:image/png;base64,iVBORw0KGgo='],
    ])('should answer 400 for a malformed data-URI image (%s), in header and footer too', async (_, src) => {
      const image = `<p>logo</p><img src="${src}">`;
      for (const args of [[image], [image, '<p>body</p>', '<p>footer</p>'], ['<p>h</p>', '<p>b</p>', image]]) {
        const res = await t.callBean('PDFServiceImpl', 'createPdf', args, { token: admin }).expect(400);
        expect(res.body).toMatchObject({
          status: 400,
          error: 'Bad Request',
          message: 'An inline image is not a valid PNG or JPEG data URI',
          requestId: expect.any(String),
        });
      }
      await t.callBean('PDFServiceImpl', 'createPdf', ['<p>still fine</p>'], { token: admin }).expect(200);
    });

    it('should refuse a two-argument call listing the signatures', async () => {
      const res = await t.callBean('PDFServiceImpl', 'createPdf', ['a', 'b'], { token: admin }).expect(400);
      expect(res.body.message).toMatch(/createPdf/);
    });

    it('should require a token and the ADMIN role', async () => {
      await t.callBean('PDFServiceImpl', 'createPdf', ['<p>x</p>']).expect(401);
      const res = await t.callBean('PDFServiceImpl', 'createPdf', ['<p>x</p>'], { token: user }).expect(403);
      expect(res.body.error).toBe('Access denied');
    });
  });

  describe('saveContentToFile', () => {
    const contentDir = (site: string) => join(t.config.dataDir, 'sites', site, 'content');

    it('should write the file inside the site content directory', async () => {
      await t
        .callBean('fileManagerServiceMock', 'saveContentToFile', ['post.html', 'blog/2024', '<p>hello</p>'], {
          token: admin,
        })
        .expect(200);
      expect(readFileSync(join(contentDir('default'), 'blog/2024/post.html'), 'utf8')).toBe('<p>hello</p>');
    });

    it('should keep the sites apart', async () => {
      await t.app
        .get<Connection>(getConnectionToken())
        .collection('sites')
        .insertOne({ _id: 'outlet', name: 'Outlet' } as never);
      await t
        .callBean('fileManagerServiceMock', 'saveContentToFile', ['post.html', 'blog/2024', 'outlet'], {
          token: admin,
          site: 'outlet',
        })
        .expect(200);
      expect(readFileSync(join(contentDir('outlet'), 'blog/2024/post.html'), 'utf8')).toBe('outlet');
      await t
        .callBean('fileManagerServiceMock', 'saveContentToFile', ['x.html', '', 'x'], { token: admin, site: 'nowhere' })
        .expect(400);
    });

    it.each([
      ['x.html', '../../..', 'traversal in the path'],
      ['../x.html', '', 'traversal in the name'],
      ['x.html', '/etc', 'an absolute path'],
      ['x\u0000.html', '', 'a NUL byte'],
    ])('should refuse %j in %j (%s)', async (name, path) => {
      await t.callBean('fileManagerServiceMock', 'saveContentToFile', [name, path, 'x'], { token: admin }).expect(400);
    });

    it('should refuse a symlink leading out of the content directory', async () => {
      mkdirSync(contentDir('default'), { recursive: true });
      symlinkSync(t.config.dataDir, join(contentDir('default'), 'escape'));
      await t
        .callBean('fileManagerServiceMock', 'saveContentToFile', ['owned.txt', 'escape', 'x'], { token: admin })
        .expect(400);
      expect(existsSync(join(t.config.dataDir, 'owned.txt'))).toBe(false);
    });

    it('should refuse a call with a missing argument and callers below ADMIN', async () => {
      await t.callBean('fileManagerServiceMock', 'saveContentToFile', ['a.txt', ''], { token: admin }).expect(400);
      await t.callBean('fileManagerServiceMock', 'saveContentToFile', ['a.txt', '', 'x'], { token: user }).expect(403);
    });
  });
});
