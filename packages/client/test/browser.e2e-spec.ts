import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { startTestApp, TEST_PASSWORD, TestApp } from '../../../test/support/test-app';
import type { ScenarioResult } from './browser/page';
import { ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS } from '../../../test/support/chromium';

type Scenario = { runScenario(...args: string[]): Promise<ScenarioResult> };

/** The test page's script and the client, bundled for the browser as a user's bundler would. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(__dirname, 'browser/page.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
    write: false,
    // sockjs-client reads `global`, which bundlers map to the browser's global object.
    define: { global: 'globalThis' },
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** Serves the test page from its own origin, as a storefront on another host would be (the app allows it by CORS). */
async function servePage(script: string): Promise<{ server: Server; origin: string }> {
  const html = `<!doctype html><title>client</title><script>${script}</script>`;
  const server = createServer((_, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Fails a hung scenario before jest's own timeout would, so that the screenshot is still taken. */
function withinSeconds<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The page did not finish within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

describe('@ccb/client in headless Chromium', () => {
  let t: TestApp;
  let pageServer: Server;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;

  beforeAll(async () => {
    const { server, origin } = await servePage(await bundlePage());
    pageServer = server;
    t = await startTestApp({ env: { CORS_ORIGINS: origin } });
    userDataDir = mkdtempSync(path.join(tmpdir(), 'ccb-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    page = context.pages()[0] ?? (await context.newPage());
    await page.goto(origin);
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.stop();
    pageServer?.close();
  });

  it.each(['websocket', 'sockjs'] as const)(
    'should log in, call a bean and receive a job progress event over %s',
    async (transport) => {
      try {
        const result = await withinSeconds(
          30,
          page.evaluate(
            ([baseUrl, password, via]) => (window as unknown as Scenario).runScenario(baseUrl, password, via),
            [t.url, TEST_PASSWORD, transport] as const,
          ),
        );
        expect(result).toMatchObject({ transport, role: 'ADMIN', jobType: `browser-${transport}` });
        expect(result.event).toMatchObject({ event: 'job.updated', data: { current: 1, progress: 25 } });
      } catch (error) {
        mkdirSync(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: path.join(ARTIFACTS, `client-browser-${transport}.png`) });
        throw error;
      }
    },
  );
});
