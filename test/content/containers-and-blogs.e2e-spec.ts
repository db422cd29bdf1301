import { Role } from '../../src/common/principal';
import { startTestApp, TestApp } from '../support/test-app';

const CONTAINERS = 'contentContainerServiceImpl';
const BLOG = 'blogViewerServiceImpl';

interface Container {
  site: string;
  lang: string;
  id: string;
  name: string;
  type: string;
  published: boolean;
  articles: { id: string; title: string; published: boolean }[];
}

describe('contentContainerServiceImpl and blogViewerServiceImpl (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let user: string;

  const editor = (fn: string, args: unknown[], options: { lang?: string; site?: string } = {}) =>
    t.callBean(CONTAINERS, fn, args, { token: admin, ...options });
  const visitor = (fn: string, args: unknown[], options: { lang?: string } = {}) => t.callBean(BLOG, fn, args, options);
  const search = async (request: Record<string, unknown>, options: { lang?: string } = {}): Promise<Container[]> =>
    (await editor('searchContainersResults', [JSON.stringify(request)], options).expect(200)).body;
  const byName = async (name: string, options: { lang?: string } = {}): Promise<Container> =>
    (await search({ query: { name }, ignoreRegexWrap: ['name'] }, options))[0];

  beforeAll(async () => {
    t = await startTestApp();
    admin = t.tokenFor(Role.ADMIN);
    user = t.tokenFor(Role.USER);
    const article = (title: string, published: boolean, extra: Record<string, unknown> = {}) => ({
      title,
      published,
      summary: `About ${title}`,
      ...extra,
    });
    await editor('createContainer', [
      {
        name: 'Garden blog',
        type: 'blog',
        published: true,
        tags: ['garden', 'roses'],
        articles: [
          article('Pruning roses (a.k.a. [cutting])', true, { tags: ['roses'] }),
          article('Draft about tulips', false),
          article('Future post', true, { releaseDate: '2999-01-01T00:00:00Z' }),
        ],
      },
    ]).expect(200);
    await editor('createContainer', [
      { name: 'Rose news', type: 'blog', published: true, tags: ['roses'], articles: [article('Rose show', true)] },
    ]).expect(200);
    await editor('createContainer', [
      { name: 'Kitchen blog', type: 'blog', published: true, tags: ['food'], articles: [article('Soup', true)] },
    ]).expect(200);
    await editor('createContainer', [
      {
        name: 'Hidden blog',
        type: 'blog',
        published: false,
        tags: ['roses'],
        articles: [article('Secret roses', true)],
      },
    ]).expect(200);
    await editor('createContainer', [{ name: 'FAQ', type: 'faq', published: true }]).expect(200);
    await editor(
      'createContainer',
      [{ name: 'Gartenblog', type: 'blog', published: true, articles: [article('Rosen schneiden', true)] }],
      { lang: 'de' },
    ).expect(200);
  });
  afterAll(() => t.stop());

  describe('editor', () => {
    it('should describe the repository of the current site and language', async () => {
      expect((await editor('getRepository', []).expect(200)).body).toMatchObject({
        repository: 'ContentContainerRepository',
        count: 5,
      });
      expect((await editor('getRepository', [], { lang: 'de' }).expect(200)).body.count).toBe(1);
    });

    it('should refuse incomplete or invalid containers', async () => {
      await editor('createContainer', [{ name: 'No type' }]).expect(400);
      await editor('createContainer', [{ name: 'Bad', type: 'Blog Posts' }]).expect(400);
      await editor('createContainer', [{ name: 'Bad', type: 'blog', articles: [{ summary: 'no title' }] }]).expect(400);
    });

    it('should never let the map choose the site, language or id', async () => {
      await editor('createContainer', [
        { name: 'Sneaky', type: 'gallery', site: 'other', lang: 'de', _id: '0123456789abcdef01234567' },
      ]).expect(200);
      const sneaky = await byName('Sneaky');
      expect(sneaky).toMatchObject({ site: 'default', lang: 'en' });
      expect(sneaky.id).not.toBe('0123456789abcdef01234567');
      await editor('removeContainerAndClean', [sneaky.id]).expect(200);
    });

    it('should search containers (literal text, paging, sorting, no operators)', async () => {
      const paged = (
        await editor('searchContainerResultsPaged', [
          JSON.stringify({ query: { type: 'blog' }, limit: 2, page: 0, sortName: 'name', sortDirection: 'ASC' }),
        ]).expect(200)
      ).body;
      expect(paged).toMatchObject({ totalElements: 4, totalPages: 2, size: 2, number: 0, first: true, last: false });
      expect(paged.content.map((c: Container) => c.name)).toEqual(['Garden blog', 'Hidden blog']);
      expect((await search({ searchTerm: '.*' })).length).toBe(0);
      expect((await search({ searchTerm: '[CUTTING]' })).map((c) => c.name)).toEqual(['Garden blog']);
      await editor('searchContainersResults', [JSON.stringify({ query: { name: { $ne: null } } })]).expect(400);
      await editor('searchContainersResults', ['{not json']).expect(400);
      const pipeline = (
        await editor('getContainerPaginationFilter', [JSON.stringify({ searchTerm: 'rose', limit: 5 })]).expect(200)
      ).body;
      expect(pipeline[0].$match.$and[0]).toEqual({ site: 'default', lang: 'en' });
      expect(pipeline).toContainEqual({ $limit: 5 });
    });

    it('should save a container, keeping article ids, and 404 for unknown ones', async () => {
      const garden = await byName('Garden blog');
      const [first] = garden.articles;
      const saved = (
        await editor('saveContainer', [
          {
            name: 'Garden blog',
            published: true,
            tags: ['garden', 'roses'],
            articles: [
              { id: first.id, title: first.title, published: true, tags: ['roses'] },
              ...garden.articles.slice(1).map((a) => ({ ...a, id: a.id })),
            ],
          },
          garden.id,
        ]).expect(200)
      ).body;
      expect(saved.articles[0].id).toBe(first.id);
      expect(saved.type).toBe('blog');
      await editor('saveContainer', [{ name: 'x' }, '0123456789abcdef01234567']).expect(404);
      await editor('saveContainer', [{ name: 'x' }, garden.id], { lang: 'de' }).expect(404);
      await editor('saveContainer', [{ name: 'x' }, 'nope']).expect(400);
    });

    it('should list every article of a container for editors', async () => {
      const garden = await byName('Garden blog');
      const articles = (await editor('getContainerArticles', [garden.id]).expect(200)).body;
      expect(articles).toHaveLength(3);
      for (const article of articles) for (const value of Object.values(article)) expect(typeof value).toBe('string');
      await editor('getContainerArticles', ['0123456789abcdef01234567']).expect(404);
    });

    it('should find articles by literal text, drafts included', async () => {
      const titles = async (text: string) =>
        (await editor('getArticles', [text]).expect(200)).body.map((a: { title: string }) => a.title);
      expect(await titles('ROSE')).toEqual(
        expect.arrayContaining(['Pruning roses (a.k.a. [cutting])', 'Rose show', 'Secret roses']),
      );
      expect(await titles('tulips')).toEqual(['Draft about tulips']);
      expect(await titles('(a.k.a. [')).toEqual(['Pruning roses (a.k.a. [cutting])']);
      expect(await titles('^.*$')).toEqual([]);
    });

    it('should list container types with counts', async () => {
      const types = (await editor('getContainerTypes', []).expect(200)).body;
      expect(types).toContainEqual({ type: 'blog', name: 'Blog', count: 4 });
      expect(types).toContainEqual({ type: 'faq', name: 'FAQ', count: 1 });
      expect(types).toContainEqual({ type: 'news', name: 'News', count: 0 });
    });

    it('should remove articles and containers', async () => {
      await editor('createContainer', [
        { name: 'Temp 1', type: 'news', articles: [{ title: 'a' }, { title: 'b' }] },
      ]).expect(200);
      await editor('createContainer', [{ name: 'Temp 2', type: 'news' }]).expect(200);
      await editor('createContainer', [{ name: 'Temp 3', type: 'news' }]).expect(200);
      const temp1 = await byName('Temp 1');
      await editor('removeArticles', [temp1.id, [temp1.articles[0].id]]).expect(200);
      expect((await byName('Temp 1')).articles.map((a) => a.title)).toEqual(['b']);
      await editor('removeArticles', ['0123456789abcdef01234567', []]).expect(404);
      await editor('removeContainerAndClean', [temp1.id]).expect(200);
      await editor('removeContainerAndClean', [temp1.id]).expect(404);
      const rest = [(await byName('Temp 2')).id, (await byName('Temp 3')).id];
      await editor('removeContainersByIds', [rest]).expect(200);
      expect(await search({ query: { type: 'news' } })).toEqual([]);
      await editor('removeContainersByIds', [['x']]).expect(400);
    });

    it('should require ADMIN', async () => {
      await t.callBean(CONTAINERS, 'getContainerTypes', []).expect(401);
      await t.callBean(CONTAINERS, 'getContainerTypes', [], { token: user }).expect(403);
    });
  });

  describe('visitor (GUEST)', () => {
    it('should show only published, released articles of published containers', async () => {
      const titles = (await visitor('getArticles', ['ros']).expect(200)).body.map((a: { title: string }) => a.title);
      expect(titles.sort()).toEqual(['Pruning roses (a.k.a. [cutting])', 'Rose show']);
      expect((await visitor('getArticles', ['Rosen'], { lang: 'de' }).expect(200)).body).toHaveLength(1);
      expect((await visitor('getArticles', ['.*']).expect(200)).body).toEqual([]);
    });

    it('should list the published articles of a container, 404 for a hidden one', async () => {
      const garden = await byName('Garden blog');
      const articles = (await visitor('getContainerArticles', [garden.id]).expect(200)).body;
      expect(articles.map((a: { title: string }) => a.title)).toEqual(['Pruning roses (a.k.a. [cutting])']);
      await visitor('getContainerArticles', [(await byName('Hidden blog')).id]).expect(404);
      await visitor('getContainerArticles', ['bad-id']).expect(400);
    });

    it('should rank related blogs by shared tags, hiding unpublished ones', async () => {
      const garden = await byName('Garden blog');
      const related = (await visitor('getRelatedBlogs', [garden.id, '5']).expect(200)).body;
      expect(related.map((b: { name: string }) => b.name)).toEqual(['Rose news', 'Kitchen blog']);
      expect(related[0]).toMatchObject({ sharedTags: ['roses'], articleCount: 1 });
      expect((await visitor('getRelatedBlogs', [garden.id, '1']).expect(200)).body).toHaveLength(1);
      await visitor('getRelatedBlogs', [garden.id, 'ten']).expect(400);
      await visitor('getRelatedBlogs', [garden.id, '0']).expect(400);
      await visitor('getRelatedBlogs', ['0123456789abcdef01234567', '3']).expect(404);
    });

    it('should compare container types without revealing hidden containers', async () => {
      const garden = await byName('Garden blog');
      expect((await visitor('isContainerTypeEqualsTo', [garden.id, 'blog']).expect(200)).body).toBe(true);
      expect((await visitor('isContainerTypeEqualsTo', [garden.id, 'faq']).expect(200)).body).toBe(false);
      expect(
        (await visitor('isContainerTypeEqualsTo', [(await byName('Hidden blog')).id, 'blog']).expect(200)).body,
      ).toBe(false);
      expect((await visitor('isContainerTypeEqualsTo', [garden.id, 'blog'], { lang: 'de' }).expect(200)).body).toBe(
        false,
      );
    });

    it('should still refuse an invalid token', async () => {
      await t.callBean(BLOG, 'getArticles', ['x'], { token: 'not.a.jwt' }).expect(401);
    });
  });
});
