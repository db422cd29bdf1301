import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { startTestApp, TestApp } from '../support/test-app';

type Reply = { actionId?: string; status: number; payload?: Record<string, any>; error?: string; message?: string };

const JSON_REPLIES = '/user/topic/default/json';
const RENDER_REPLIES = '/user/topic/default/render';
const byAction = (actionId: string) => (reply: Reply) => reply.actionId === actionId;

describe('STOMP /request/json and /request/render (e2e)', () => {
  let t: TestApp;
  let visitor: TestStompClient;

  const publish = async (
    pageUrl: string,
    content: string,
    options: { lang?: string; metaInfo?: Record<string, unknown> } = {},
  ) => {
    const token = t.tokenFor(Role.ADMIN);
    const lang = options.lang ?? 'en';
    await t
      .callBean(
        'pageManagementServiceImpl',
        'createPage',
        [{ pageUrl, content, published: true, metaInfo: options.metaInfo }],
        { token, lang },
      )
      .expect(200);
    await t.callBean('pageManagementServiceImpl', 'publishToUrl', [{ pageName: pageUrl }], { token, lang }).expect(200);
  };
  const ask = async (
    destination: '/request/json' | '/request/render',
    message: Record<string, unknown>,
    headers = {},
  ) => {
    const replies = destination === '/request/json' ? JSON_REPLIES : RENDER_REPLIES;
    visitor.send(destination, message, headers);
    return visitor.next<Reply>(replies, byAction(message.actionId as string));
  };

  beforeAll(async () => {
    t = await startTestApp();
    await publish('about', 'About us', { metaInfo: { title: 'About <ACME>', description: 'Who "we" are' } });
    await publish('about', 'Über uns', { lang: 'de' });
    await publish('hostile', '<script>alert("x")</script><img src=x onerror=alert(1)>');
    visitor = await TestStompClient.connect(t.url);
    await visitor.subscribe(JSON_REPLIES);
    await visitor.subscribe(RENDER_REPLIES);
  });
  afterAll(async () => {
    await visitor.disconnect();
    await t.stop();
  });

  it('should answer the page data for a path, in the language of the SEND frame', async () => {
    const en = await ask('/request/json', { path: '/about', actionId: 'j1' });
    expect(en).toMatchObject({ status: 200, payload: { status: 200, uri: '/about', page: { content: 'About us' } } });
    const de = await ask('/request/json', { path: '/about', actionId: 'j2' }, { 'Lang-Context': 'de' });
    expect(de.payload!.page.content).toBe('Über uns');
  });

  it('should answer 404 routes and refuse a missing path', async () => {
    expect((await ask('/request/json', { path: '/missing', actionId: 'j3' })).payload).toMatchObject({
      status: 404,
      page: null,
    });
    expect(await ask('/request/json', { actionId: 'j4' })).toMatchObject({ status: 400, error: 'Bad Request' });
  });

  it('should render the page to HTML with every value escaped', async () => {
    const about = (await ask('/request/render', { path: '/about', actionId: 'r1' })).payload!;
    expect(about).toMatchObject({ status: 200, uri: '/about', redirect: null });
    expect(about.html).toContain('<title>About &lt;ACME&gt;</title>');
    expect(about.html).toContain('<meta name="description" content="Who &quot;we&quot; are">');
    expect(about.html).toContain('About us');

    const hostile = (await ask('/request/render', { path: '/hostile', actionId: 'r2' })).payload!;
    expect(hostile.html).not.toContain('<script>');
    expect(hostile.html).not.toContain('<img');
    expect(hostile.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;',
    );
  });

  it('should answer redirects without HTML', async () => {
    expect((await ask('/request/render', { path: '/about/', actionId: 'r3' })).payload).toEqual({
      uri: '/about',
      status: 301,
      redirect: '/about',
      html: null,
    });
  });

  it('should broadcast a GLOBAL render to every subscriber of the site render topic', async () => {
    const watcher = await TestStompClient.connect(t.url, { transport: 'sockjs' });
    try {
      await watcher.subscribe('/topic/default/render');
      visitor.send('/request/render', { path: '/about', actionId: 'g1', eventType: 'GLOBAL' });
      const reply = await watcher.next<Reply>('/topic/default/render', byAction('g1'));
      expect(reply.payload).toMatchObject({ status: 200, uri: '/about' });
    } finally {
      await watcher.disconnect();
    }
  });
});
