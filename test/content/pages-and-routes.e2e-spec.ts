import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';

const PAGES = 'pageManagementServiceImpl';
const ROUTER = 'routerServiceImpl';

describe('pageManagementServiceImpl and routerServiceImpl (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let user: string;

  const page = (fn: string, args: unknown[], options: { lang?: string; site?: string; token?: string } = {}) =>
    t.callBean(PAGES, fn, args, { token: admin, ...options });
  const route = (uri: string, options: { lang?: string; site?: string } = {}) =>
    t.callBean(ROUTER, 'routeAsSinglePageApplication', [options.site ?? 'default', uri], { token: admin, ...options });
  const createPage = async (request: Record<string, unknown>, options: { lang?: string; site?: string } = {}) =>
    (await page('createPage', [request], options).expect(200)).body as string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    user = t.tokenFor(Role.USER);
    await t.app
      .get<Connection>(getConnectionToken())
      .collection('sites')
      .insertOne({ _id: 'outlet', name: 'Outlet' } as never);
  });
  afterAll(() => t.stop());

  describe('createPage', () => {
    it('should create a page and return its id', async () => {
      const id = await createPage({ pageUrl: 'create-1', content: '<p>x</p>', metaInfo: { title: 'T' } });
      expect(id).toMatch(/^[0-9a-f]{24}$/);
    });

    it('should refuse a duplicate pageUrl in the same site and language with 409', async () => {
      await createPage({ pageUrl: 'dup' });
      await page('createPage', [{ pageUrl: 'dup' }]).expect(409);
    });

    it('should never let the map choose the site or language', async () => {
      const id = await createPage({ pageUrl: 'sneaky', site: 'outlet', lang: 'de', published: true });
      const stored = await t.app
        .get<Connection>(getConnectionToken())
        .collection('pages')
        .findOne({ pageUrl: 'sneaky' });
      expect(stored).toMatchObject({ site: 'default', lang: 'en' });
      expect(stored!._id.toHexString()).toBe(id);
    });

    it('should keep sites and languages apart', async () => {
      await createPage({ pageUrl: 'same' });
      await createPage({ pageUrl: 'same' }, { lang: 'de' });
      await createPage({ pageUrl: 'same' }, { site: 'outlet' });
    });

    it.each<[Record<string, unknown>, string]>([
      [{}, 'missing pageUrl'],
      [{ pageUrl: '../etc' }, 'a path instead of a slug'],
      [{ pageUrl: 'ok', published: 'yes' }, 'a non-boolean published'],
      [{ pageUrl: 'ok', releaseDate: 'tomorrow' }, 'a bad date'],
    ])('should refuse %j (%s) with 400', async (request) => {
      await page('createPage', [request]).expect(400);
    });

    it('should require ADMIN', async () => {
      await t.callBean(PAGES, 'createPage', [{ pageUrl: 'nope' }]).expect(401);
      await t.callBean(PAGES, 'createPage', [{ pageUrl: 'nope' }], { token: user }).expect(403);
    });
  });

  describe('updatePage and deletePage', () => {
    it('should update a page, and answer 404 for an unknown or foreign one', async () => {
      const id = await createPage({ pageUrl: 'upd', imageUrl: '/img.png' });
      await page('updatePage', [{ id, pageUrl: 'upd', content: 'new', published: true, imageUrlRemove: true }]).expect(
        200,
      );
      const stored = await t.app.get<Connection>(getConnectionToken()).collection('pages').findOne({ pageUrl: 'upd' });
      expect(stored).toMatchObject({ content: 'new', published: true });
      expect(stored!.imageUrl).toBeUndefined();
      await page('updatePage', [{ id, content: 'x' }], { lang: 'de' }).expect(404);
      await page('updatePage', [{ id: '0123456789abcdef01234567', content: 'x' }]).expect(404);
      await page('updatePage', [{ id: 'not-an-id' }]).expect(400);
      await page('updatePage', [{ content: 'x' }]).expect(400);
    });

    it('should delete pages, one or many, and their routes', async () => {
      const one = await createPage({ pageUrl: 'del-1', published: true });
      const two = await createPage({ pageUrl: 'del-2' });
      await page('publishToUrl', [{ pageName: 'del-1' }]).expect(200);
      await page('deletePage', [one]).expect(200);
      await page('deletePage', [one]).expect(404);
      expect((await route('/del-1').expect(200)).body.status).toBe(404);
      await page('deletePages', [[two]]).expect(200);
      await page('updatePage', [{ id: two, content: 'x' }]).expect(404);
      await page('deletePages', [['bad']]).expect(400);
    });
  });

  describe('duplicatePage and copyPage', () => {
    it('should duplicate a page in the same language, unpublished', async () => {
      const id = await createPage({ pageUrl: 'orig', content: 'hello', published: true });
      await page('duplicatePage', [{ fromId: id }]).expect(200);
      await page('duplicatePage', [{ fromId: id }]).expect(409);
      await page('publishToUrl', [{ pageName: 'orig-copy' }]).expect(200);
      expect((await route('/orig-copy').expect(200)).body.status).toBe(404);
    });

    it('should translate into the target language, marked as awaiting translation', async () => {
      const id = await createPage({ pageUrl: 'translate-me', content: 'English text' });
      await page('duplicatePage', [{ fromId: id, translate: true, request: { lang: 'de' } }]).expect(200);
      await page('duplicatePage', [{ fromId: id, translate: true }]).expect(400);
      const pages = await t.app
        .get<Connection>(getConnectionToken())
        .collection('pages')
        .find({ pageUrl: 'translate-me' })
        .toArray();
      const german = pages.find((p) => p.lang === 'de')!;
      expect(german).toMatchObject({
        content: 'English text',
        awaitingTranslation: true,
        published: false,
        copiedFrom: id,
      });
    });

    it('should copy into an existing page, as an e-mail template when asked', async () => {
      const from = await createPage({ pageUrl: 'mail-src', content: 'Dear customer' });
      const to = await createPage({ pageUrl: 'mail-dst' });
      await page('copyPage', [{ fromId: from, toId: to, emailTemplate: true }]).expect(200);
      const stored = await t.app
        .get<Connection>(getConnectionToken())
        .collection('pages')
        .findOne({ pageUrl: 'mail-dst' });
      expect(stored).toMatchObject({ content: 'Dear customer', emailTemplate: true });
      await page('copyPage', [{ fromId: from }]).expect(400);
      await page('copyPage', [{ fromId: from, toId: '0123456789abcdef01234567' }]).expect(404);
      await page('copyPage', [{ fromId: '0123456789abcdef01234567', toId: to }]).expect(404);
    });
  });

  describe('publishToUrl and routing', () => {
    it('should route a published page at its URL, per site and language', async () => {
      await createPage({ pageUrl: 'about', content: 'About us', published: true });
      await createPage({ pageUrl: 'about', content: 'Über uns', published: true }, { lang: 'de' });
      await page('publishToUrl', [{ pageName: 'about', pageRoot: '/company' }]).expect(200);
      await page('publishToUrl', [{ pageName: 'about', pageRoot: 'firma' }], { lang: 'de' }).expect(200);

      const en = (await route('/company/about').expect(200)).body;
      expect(en).toMatchObject({ status: 200, uri: '/company/about', lang: 'en', redirect: null });
      expect(en.page).toMatchObject({ pageUrl: 'about', content: 'About us' });
      expect((await route('/firma/about', { lang: 'de' }).expect(200)).body.page.content).toBe('Über uns');
      expect((await route('/firma/about').expect(200)).body.status).toBe(404);
      expect((await route('/company/about', { site: 'outlet' }).expect(200)).body.status).toBe(404);
    });

    it('should redirect non-canonical URIs and moved pages with 301', async () => {
      await createPage({ pageUrl: 'moving', published: true });
      await page('publishToUrl', [{ pageName: 'moving', pageRoot: 'old' }]).expect(200);
      expect((await route('/old/moving/?a=1').expect(200)).body).toMatchObject({
        status: 301,
        redirect: '/old/moving?a=1',
      });
      await page('publishToUrl', [{ pageName: 'moving', pageRoot: 'new', copyTo: ['/alias/moving'] }]).expect(200);
      expect((await route('/old/moving').expect(200)).body).toMatchObject({ status: 301, redirect: '/new/moving' });
      expect((await route('/alias/moving').expect(200)).body.status).toBe(200);
    });

    it('should answer 404 with the site 404 page, and hide unpublished or unreleased pages', async () => {
      await createPage({ pageUrl: '404', content: 'Nothing here', published: true });
      await createPage({ pageUrl: 'draft' });
      await createPage({ pageUrl: 'later', published: true, releaseDate: '2999-01-01T00:00:00Z' });
      await page('publishToUrl', [{ pageName: 'draft' }]).expect(200);
      await page('publishToUrl', [{ pageName: 'later' }]).expect(200);
      for (const uri of ['/no/such/page', '/draft', '/later', '/../etc/passwd']) {
        const body = (await route(uri).expect(200)).body;
        expect(body).toMatchObject({ status: 404, redirect: null });
        expect(body.page.content).toBe('Nothing here');
      }
    });

    it('should refuse a URI taken by another page, unknown pages and bad URIs', async () => {
      await createPage({ pageUrl: 'first', published: true });
      await createPage({ pageUrl: 'second', published: true });
      await page('publishToUrl', [{ pageName: 'first', pageRoot: 'x' }]).expect(200);
      await page('publishToUrl', [{ pageName: 'second', copyTo: ['/x/first'] }]).expect(409);
      await page('publishToUrl', [{ pageName: 'ghost' }]).expect(404);
      await page('publishToUrl', [{ pageName: 'first', pageRoot: '../..' }]).expect(400);
      await page('publishToUrl', [{ pageName: 'first', containerId: '0123456789abcdef01234567' }]).expect(404);
    });
  });

  describe('routes showing a container', () => {
    const containers = (fn: string, args: unknown[]) =>
      t.callBean('contentContainerServiceImpl', fn, args, { token: admin });
    const containerNamed = async (name: string) =>
      (
        await containers('searchContainersResults', [
          JSON.stringify({ query: { name }, ignoreRegexWrap: ['name'] }),
        ]).expect(200)
      ).body[0];

    it('should route to the page with the published articles of its container', async () => {
      await containers('createContainer', [
        {
          name: 'News desk',
          type: 'news',
          published: true,
          articles: [
            { title: 'Out now', published: true },
            { title: 'Draft', published: false },
            { title: 'Embargoed', published: true, releaseDate: '2999-01-01T00:00:00Z' },
          ],
        },
      ]).expect(200);
      const news = await containerNamed('News desk');
      await createPage({ pageUrl: 'news', published: true });
      await page('publishToUrl', [{ pageName: 'news', containerId: news.id, containerType: 'blog' }]).expect(400);
      await page('publishToUrl', [{ pageName: 'news', containerId: news.id }]).expect(200);
      const routed = (await route('/news').expect(200)).body;
      expect(routed.container).toMatchObject({ id: news.id, type: 'news', name: 'News desk' });
      expect(routed.container.articles.map((a: { title: string }) => a.title)).toEqual(['Out now']);
    });

    it('should drop the container from routes, or the routes themselves, when the container goes', async () => {
      await containers('createContainer', [{ name: 'Kept page', type: 'news', published: true }]).expect(200);
      await containers('createContainer', [{ name: 'Gone page', type: 'news', published: true }]).expect(200);
      const kept = await containerNamed('Kept page');
      const gone = await containerNamed('Gone page');
      await createPage({ pageUrl: 'kept', published: true });
      await createPage({ pageUrl: 'gone', published: true });
      await page('publishToUrl', [{ pageName: 'kept', containerId: kept.id }]).expect(200);
      await page('publishToUrl', [{ pageName: 'gone', containerId: gone.id }]).expect(200);

      await containers('removeContainersByIds', [[kept.id]]).expect(200);
      expect((await route('/kept').expect(200)).body).toMatchObject({ status: 200, container: null });
      await containers('removeContainerAndClean', [gone.id]).expect(200);
      expect((await route('/gone').expect(200)).body.status).toBe(404);
    });
  });

  describe('login and 404 pages', () => {
    it('should fall back to /login and /404, then follow the published pages', async () => {
      expect(
        (await t.callBean(ROUTER, 'getLoginPage', ['outlet'], { token: admin, site: 'outlet' }).expect(200)).text,
      ).toBe('"/login"');
      await createPage({ pageUrl: 'login', published: true }, { site: 'outlet' });
      await page('publishToUrl', [{ pageName: 'login', pageRoot: 'account' }], { site: 'outlet' }).expect(200);
      expect(
        (await t.callBean(ROUTER, 'getLoginPage', ['outlet'], { token: admin, site: 'outlet' }).expect(200)).body,
      ).toBe('/account/login');
      expect((await t.callBean(ROUTER, 'getLoginPage', ['default'], { token: admin }).expect(200)).body).toBe('/login');
      await createPage({ pageUrl: '404', published: true }, { site: 'outlet' });
      await page('publishToUrl', [{ pageName: '404', pageRoot: 'errors' }], { site: 'outlet' }).expect(200);
      expect(
        (await t.callBean(ROUTER, 'getPage404', ['outlet'], { token: admin, site: 'outlet' }).expect(200)).body,
      ).toBe('/errors/404');
    });

    it('should answer 404 for an unknown site and require ADMIN', async () => {
      await t.callBean(ROUTER, 'getPage404', ['nowhere'], { token: admin }).expect(404);
      await t.callBean(ROUTER, 'routeAsSinglePageApplication', ['nowhere', '/'], { token: admin }).expect(404);
      await t.callBean(ROUTER, 'getLoginPage', ['default'], { token: user }).expect(403);
      await t.callBean(ROUTER, 'getLoginPage', ['default']).expect(401);
    });
  });
});
