import { getConnectionToken } from '@nestjs/mongoose';
import { JSDOM } from 'jsdom';
import { Connection } from 'mongoose';
import { Readable } from 'node:stream';
import { parseSitemap } from 'sitemap';
import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

const GENERATOR = 'sitemapGeneratorServiceImpl';

describe('sitemapGeneratorServiceImpl (e2e)', () => {
  let t: TestApp;
  let admin: string;

  const generate = (request: Record<string, unknown>, site = 'default') =>
    t.callBean(GENERATOR, 'generateSiteMap', [request], { token: admin, site });
  const inProgress = async (site = 'default') =>
    (await t.callBean(GENERATOR, 'isWorkInProgress', [], { token: admin, site }).expect(200)).body as boolean;
  const settled = async (site = 'default') => {
    for (let i = 0; i < 100 && (await inProgress(site)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const publish = async (
    pageUrl: string,
    options: {
      pageRoot?: string;
      published?: boolean;
      lang?: string;
      site?: string;
      metaInfo?: Record<string, unknown>;
    } = {},
  ) => {
    const { lang = 'en', site = 'default', published = true, metaInfo } = options;
    await t
      .callBean('pageManagementServiceImpl', 'createPage', [{ pageUrl, published, metaInfo }], {
        token: admin,
        lang,
        site,
      })
      .expect(200);
    await t
      .callBean('pageManagementServiceImpl', 'publishToUrl', [{ pageName: pageUrl, pageRoot: options.pageRoot }], {
        token: admin,
        lang,
        site,
      })
      .expect(200);
  };
  const sitemapUrls = async (site: string, file = 'sitemap.xml') => {
    const res = await t.http.get(`/api/v1/sites/${site}/${file}`).expect(200).expect('Content-Type', /xml/);
    const xml = res.text;
    const doc = new JSDOM(xml, { contentType: 'application/xml' }).window.document;
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    return (await parseSitemap(Readable.from(xml))).map((item) => item.url).sort();
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    await t.app
      .get<Connection>(getConnectionToken())
      .collection('sites')
      .insertOne({ _id: 'outlet', name: 'Outlet' } as never);
    await publish('home');
    await publish('roses', { pageRoot: 'blog' });
    await publish('drafts', { pageRoot: 'blog', published: false });
    await publish('intern', { pageRoot: 'private' });
    await publish('rosen', { pageRoot: 'blog', lang: 'de' });
    await publish('sale', { site: 'outlet' });
  });
  afterAll(() => t.stop());

  it('should answer 404 before a sitemap was generated', async () => {
    await t.http.get('/api/v1/sites/default/sitemap.xml').expect(404);
  });

  it('should generate the sitemap of published routes of the site as a job', async () => {
    await generate({
      urlPrefix: 'https://shop.example.com',
      sitePrefix: '/shop',
      urlsToIgnore: ['/private'],
      username: 'admin',
    }).expect(200);
    await settled();
    expect(await sitemapUrls('default')).toEqual([
      'https://shop.example.com/shop/blog/rosen',
      'https://shop.example.com/shop/blog/roses',
      'https://shop.example.com/shop/home',
    ]);
    const jobs = await t.app
      .get<Connection>(getConnectionToken())
      .collection('jobs')
      .find({ type: 'sitemap' })
      .toArray();
    expect(jobs[0]).toMatchObject({ status: 'DONE', progress: 100 });
  });

  it('should publish the job progress on /topic/jobs', async () => {
    const watcher = await TestStompClient.connect(t.url, { token: admin });
    try {
      await watcher.subscribe('/topic/jobs');
      await generate({ urlPrefix: 'https://shop.example.com' }).expect(200);
      type JobEvent = { event: string; data: { type: string; status: string; progress: number } };
      const done = await watcher.next<JobEvent>(
        '/topic/jobs',
        (e) => e.data?.type === 'sitemap' && e.data.status === 'DONE',
      );
      expect(done).toMatchObject({ event: 'job.updated', data: { progress: 100 } });
      await settled();
    } finally {
      await watcher.disconnect();
    }
  });

  it('should keep sites apart', async () => {
    await generate({ urlPrefix: 'https://outlet.example.com' }, 'outlet').expect(200);
    await settled('outlet');
    expect(await sitemapUrls('outlet')).toEqual(['https://outlet.example.com/sale']);
  });

  it('should run one generation per site at a time and report when it is over', async () => {
    const statuses = (await Promise.all([1, 2, 3].map(() => generate({ urlPrefix: 'https://shop.example.com' })))).map(
      (r) => r.status,
    );
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    await settled();
    expect(await inProgress()).toBe(false);
    expect(await sitemapUrls('default')).toHaveLength(4);
  });

  it('should leave out the 404 page and pages marked noindex', async () => {
    await publish('404', { pageRoot: 'errors', metaInfo: { title: 'Not found' } });
    await publish('thanks', { metaInfo: { robots: 'noindex, follow' } });
    await publish('care', { pageRoot: 'blog', metaInfo: { robots: 'index, follow' } });
    const page404 = await t.callBean('routerServiceImpl', 'getPage404', ['default'], { token: admin }).expect(200);
    expect(page404.body).toBe('/errors/404');

    await generate({ urlPrefix: 'https://shop.example.com' }).expect(200);
    await settled();
    expect(await sitemapUrls('default')).toEqual([
      'https://shop.example.com/blog/care',
      'https://shop.example.com/blog/rosen',
      'https://shop.example.com/blog/roses',
      'https://shop.example.com/home',
      'https://shop.example.com/private/intern',
    ]);
  });

  it('should refuse bad requests', async () => {
    await generate({}).expect(400);
    await generate({ urlPrefix: 'javascript:alert(1)' }).expect(400);
    await generate({ urlPrefix: 'https://shop.example.com/' }).expect(400);
    await generate({ urlPrefix: 'https://shop.example.com', siteMapGenType: 'EVERYTHING' }).expect(400);
    await generate({ urlPrefix: 'https://shop.example.com', sitePrefix: '../x' }).expect(400);
  });

  it('should serve only sitemap files', async () => {
    await t.http.get('/api/v1/sites/default/..%2F..%2Fsecret.xml').expect(404);
    await t.http.get('/api/v1/sites/default/sitemap-99.xml').expect(404);
    await t.http.get('/api/v1/sites/..%2F..%2F/sitemap.xml').expect(400);
  });

  it('should require ADMIN to generate', async () => {
    await t.callBean(GENERATOR, 'generateSiteMap', [{ urlPrefix: 'https://x.example' }]).expect(401);
    await t.callBean(GENERATOR, 'isWorkInProgress', [], { token: t.tokenFor(Role.USER) }).expect(403);
  });
});
