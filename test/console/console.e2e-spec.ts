import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { Role } from '../../src/common/principal';
import { demoId } from '../../src/seed/demo-id';
import { checkOut, giveAddress, payOrder } from '../orders/support/order-calls';
import { startTestApp, TEST_PASSWORD, TestApp } from '../support/test-app';
import { ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS } from '../support/chromium';

/** `CONSOLE_SCREENSHOTS=<dir>` keeps a picture of each screen (the README's come from there). */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS;
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * The web console (`packages/console`, served at `/console`) in Debian's chromium, driven by playwright-core against
 * the real app: it logs in, finds and calls beans through generated forms, shows the server's 400 next to the field,
 * follows a job's progress from live events, and hides what the role may not call. A failed test leaves a
 * screenshot in `tmp/artifacts/`; every screen passes axe-core with no serious or critical violation.
 */
describe('Web console in headless Chromium', () => {
  let t: TestApp;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SEED_DEMO: 'true' } });
    await t.createUser({ username: 'console.user', role: Role.USER });
    userDataDir = mkdtempSync(path.join(tmpdir(), 'ccb-console-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      locale: 'en-US',
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.stop();
  });

  /** Runs a scenario; on failure keeps a screenshot named after it. */
  async function scenario(name: string, steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } catch (error) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
      throw error;
    }
  }

  async function openAs(username: string | null): Promise<void> {
    await page.goto(`${t.url}/console/`);
    if (username === null) return;
    await page.getByLabel('User name').fill(username);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText(`Logged in as ${username}`).waitFor();
  }

  async function chooseMethod(query: string, method: string): Promise<void> {
    await page.getByRole('link', { name: 'Explorer' }).click();
    await page.getByLabel('Search beans and methods').fill(query);
    await page.getByRole('button', { name: method, exact: true }).click();
    await page.getByRole('heading', { name: method }).waitFor();
  }

  async function keepScreen(name: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  /** The seller offers a demo SKU with stock at a new warehouse, through the offers API; the offer's id. */
  async function offerADemoSku(token: string, sellerId: string): Promise<string> {
    const { body: listing } = await t.callBean('ecomRemainsSearchEngineServiceImpl', 'listProducts', [{ size: 1 }]);
    const { body: detail } = await t
      .callBean('ecomRemainsSearchEngineServiceImpl', 'getProductDetail', [listing.items[0].id])
      .expect(200);
    const warehouse = { street: 'Lager', houseNumber: '1', postalCode: '10117', city: 'Berlin', country: 'DE' };
    const { body: address } = await t
      .callBean('geoLocationServiceImpl', 'addShippingAddress', [sellerId, warehouse], { token })
      .expect(200);
    const offers = '/api/v1/catalogue/offers';
    const { body: offer } = await t.http
      .post(offers)
      .set('Authorization', `Bearer ${token}`)
      .send({ skuId: detail.skus[0].id, price: 990, currency: 'EUR' })
      .expect(201);
    await t.http
      .put(`${offers}/${offer.id}/stock/${address.id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ quantity: 3 })
      .expect(200);
    return offer.id as string;
  }

  async function seriousViolations(): Promise<AxeViolation[]> {
    await page.evaluate(AXE_SOURCE);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
      return (await axe.run()).violations;
    });
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  it('should be served by the app with its own files and the security headers', async () => {
    const response = await fetch(`${t.url}/console/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await response.text()).toContain('<script src="console.js"');
    expect((await fetch(`${t.url}/console/console.js`)).status).toBe(200);
  });

  it('should start a job from its generated form and show its progress bar reach 100 % from live events', () =>
    scenario('job-progress', async () => {
      await openAs('test-admin');
      await chooseMethod('startjob', 'jobsManagementServiceImpl.startJob');
      await page.getByLabel('Argument 0: String').fill('console-import');
      await page.getByLabel('Argument 1: int').fill('4');
      await page.getByRole('button', { name: 'Call' }).click();
      await expect(page.getByTestId('status').textContent()).resolves.toBe('200');
      await expect(page.getByTestId('result').textContent()).resolves.toContain('"console-import"');
      const { body } = await t
        .callBean('jobsManagementServiceImpl', 'searchJobs', [{ query: { type: 'console-import' } }], {
          token: t.tokenFor(Role.ADMIN),
        })
        .expect(200);
      const jobId = body.items[0].id as string;
      expect(await page.getByTestId('result').textContent()).toContain(jobId);

      await page.getByRole('link', { name: 'Live' }).click();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      const bar = page.locator(`[data-job-id="${jobId}"] progress`);
      await bar.waitFor();
      for (let step = 0; step < 4; step++) {
        await t.callBean('jobsManagementServiceImpl', 'incrementJob', [jobId, 1], { token: t.tokenFor(Role.ADMIN) });
      }
      await page.waitForFunction(
        (id) => document.querySelector<HTMLProgressElement>(`[data-job-id="${id}"] progress`)?.value === 100,
        jobId,
      );
      await keepScreen('live-job-progress');
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should call an overloaded method through each of its overloads, over REST and over STOMP', () =>
    scenario('overloads', async () => {
      await openAs('test-admin');
      await chooseMethod('getVerificationToken', 'tokenServiceImpl.getVerificationToken');
      const overloads = page.getByRole('group', { name: 'Overload' }).getByRole('radio');
      expect(await overloads.count()).toBe(2);
      await overloads.nth(0).check();
      await page.getByLabel('Argument 0: String').fill('no-such-token');
      await page.getByRole('button', { name: 'Call' }).click();
      await expect(page.getByTestId('status').textContent()).resolves.toBe('200');
      expect(await page.getByTestId('result').textContent()).toBe('null');

      await overloads.nth(1).check();
      await page.getByLabel('Argument 0: String').fill('no-such-token');
      await page.getByLabel('Argument 1: String').fill('test-user');
      await page.getByRole('radio', { name: 'STOMP' }).check();
      await page.getByRole('button', { name: 'Call' }).click();
      await expect(page.getByTestId('status').textContent()).resolves.toBe('200');
      await page.getByRole('button', { name: 'Copy as curl' }).click();
      const curl = await page.getByLabel('Snippet').inputValue();
      expect(JSON.parse(/--data '(.*)'$/s.exec(curl)?.[1] ?? '')).toEqual({
        beanId: 'tokenServiceImpl',
        functionName: 'getVerificationToken',
        args: ['no-such-token', 'test-user'],
      });
      await page.getByRole('button', { name: 'Copy as typed-client code' }).click();
      expect(await page.getByLabel('Snippet').inputValue()).toContain(
        `client.live.beans.tokenServiceImpl.getVerificationToken("no-such-token", "test-user")`,
      );
      await keepScreen('explorer-overloads');
      expect(await seriousViolations()).toEqual([]);
    }));

  it("should show the server's 400 next to the wrong argument", () =>
    scenario('bad-argument', async () => {
      await openAs('test-admin');
      await chooseMethod('startjob', 'jobsManagementServiceImpl.startJob');
      await page.getByLabel('Argument 0: String').fill('console-bad');
      await page.getByLabel('Argument 1: int').fill('many');
      await page.getByRole('button', { name: 'Call' }).click();
      await expect(page.getByTestId('status').textContent()).resolves.toBe('400');
      const field = page.getByLabel('Argument 1: int');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const problem = page.locator(`#${await field.getAttribute('aria-describedby')}`);
      expect(await problem.textContent()).toMatch(/^400 .*expected int/);
      await keepScreen('explorer-bad-argument');
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should show a USER only what a USER may call, and a guest only the guest methods', () =>
    scenario('roles', async () => {
      await openAs('console.user');
      await page.getByLabel('Search beans and methods').fill('jobsManagementServiceImpl');
      await page.getByText('No method matches.').waitFor();
      await page.getByLabel('Search beans and methods').fill('getCartDTO');
      expect(await page.getByRole('button', { name: 'shoppingCartServiceImpl.getCartDTO' }).count()).toBe(1);
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await page.getByLabel('Search beans and methods').fill('orderServiceImpl.getOrdersPaged');
      await page.getByText('No method matches.').waitFor();
      await page.getByLabel('Search beans and methods').fill('getCountryByCode');
      expect(await page.getByRole('button', { name: 'geoLocationServiceImpl.getCountryByCode' }).count()).toBe(1);
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should stream the events of a topic the user may follow, and show the refusal of one they may not', () =>
    scenario('live-topics', async () => {
      await openAs('test-admin');
      await page.getByRole('link', { name: 'Live' }).click();
      await page.getByLabel('Topic').fill('/topic/jobs');
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await page.getByRole('button', { name: 'Unsubscribe /topic/jobs' }).waitFor();
      await t.callBean('jobsManagementServiceImpl', 'startJob', ['console-streamed', 2], {
        token: t.tokenFor(Role.ADMIN),
      });
      await page.locator('.events li', { hasText: '"console-streamed"' }).first().waitFor();

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByLabel('User name').fill('console.user');
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('link', { name: 'Live' }).click();
      expect(await page.getByRole('heading', { name: 'Jobs' }).count()).toBe(0);
      await page.getByLabel('Topic').fill('/topic/jobs');
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      expect(await page.getByRole('alert').textContent()).toBe('403 Subscription to /topic/jobs refused');
      expect(await seriousViolations()).toEqual([]);
    }));

  it("should list orders by status and open one's timeline", () =>
    scenario('orders', async () => {
      const alice = { username: 'alice', id: String(demoId('user:alice')) };
      const token = t.tokenFor(Role.USER, alice);
      await giveAddress(t, token, 'DE', 'Berlin');
      const { body: listing } = await t
        .callBean('ecomRemainsSearchEngineServiceImpl', 'listProducts', [{ currency: 'EUR', size: 1 }])
        .expect(200);
      const [order] = await checkOut(t, { ...alice, token }, [
        { sellerSkuId: listing.items[0].cheapestOffer.offerId, quantity: 1 },
      ]);

      await openAs('test-admin');
      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await page.getByLabel('Status').selectOption(order.status);
      const row = page.getByRole('row', { name: new RegExp(order.id) });
      await row.waitFor();
      expect(await row.textContent()).toContain('alice');
      await page.getByLabel('Status').selectOption('DELIVERED');
      await page.getByText('Nothing here.').waitFor();
      await page.getByLabel('Status').selectOption('');
      await page.getByRole('button', { name: new RegExp(order.id) }).click();
      await page.getByRole('heading', { name: `Order ${order.id}` }).waitFor();
      const timeline = await page.locator('.timeline li').allTextContents();
      expect(timeline[0]).toMatch(/^NEW/);
      expect(timeline.at(-1)).toContain(order.status);
      await keepScreen('orders');
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should let an admin approve a seller application, and show the seller a new paid order arriving live', () =>
    scenario('seller-desk', async () => {
      const applicant = await t.createUser({ username: 'console.seller', role: Role.USER });
      const company = {
        companyName: 'Konsolen Gärtnerei GmbH',
        street: 'Gartenweg 4',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
        vatId: 'DE123456789',
      };
      const { body: application } = await t
        .callBean('sellerOnboardingServiceImpl', 'applyAsSeller', [company], { token: applicant.token })
        .expect(200);

      await openAs('test-admin');
      await page.getByRole('link', { name: 'Seller applications' }).click();
      const card = page.getByRole('article', { name: company.companyName });
      await card.waitFor();
      await keepScreen('seller-applications');
      expect(await seriousViolations()).toEqual([]);
      await card.getByRole('button', { name: `Approve ${company.companyName}` }).click();
      await card.waitFor({ state: 'detached' });
      const { body: mine } = await t
        .callBean('sellerOnboardingServiceImpl', 'getMySellerApplications', [], { token: applicant.token })
        .expect(200);
      expect(mine).toEqual([expect.objectContaining({ id: application.id, status: 'APPROVED' })]);
      const sellerId = mine[0].sellerId as string;

      const offerId = await offerADemoSku(applicant.token, sellerId);
      await openAs('console.seller');
      await page.getByRole('link', { name: 'My orders' }).click();
      await page.getByText('Nothing here.').waitFor();

      const alice = { username: 'alice', id: String(demoId('user:alice')) };
      const buyer = { ...alice, token: t.tokenFor(Role.USER, alice) };
      const [order] = await checkOut(t, buyer, [{ sellerSkuId: offerId, quantity: 1 }]);
      await payOrder(t, buyer, order.id, t.tokenFor(Role.ADMIN));
      const row = page.locator(`[data-order-id="${order.id}"]`);
      await row.filter({ hasText: 'PAID' }).waitFor();
      expect(await row.textContent()).toContain('alice');
      await keepScreen('seller-desk');
      expect(await seriousViolations()).toEqual([]);

      await page.getByRole('link', { name: 'Offers and stock' }).click();
      const offer = page.locator(`[data-offer-id="${offerId}"]`);
      expect(await offer.locator('.available').textContent()).toBe('2 available');
      await offer.getByLabel(/^On hand at warehouse/).fill('10');
      await offer.getByRole('button', { name: 'Save' }).click();
      await offer.locator('.available', { hasText: '9 available' }).waitFor();
      await offer.getByLabel(/^On hand at warehouse/).fill('0');
      await offer.getByRole('button', { name: 'Save' }).click();
      expect(await page.getByRole('alert').textContent()).toMatch(/^409 /);
      await keepScreen('offers');
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should let an admin disable a user, whose token then stops working', () =>
    scenario('users', async () => {
      const user = await t.createUser({ username: 'console.leaver', role: Role.USER });
      await t.callBean('orderServiceImpl', 'getOrdersFromLoggedUser', [], { token: user.token }).expect(200);
      await openAs('test-admin');
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Search users by name or e-mail').fill('console.leaver');
      const row = page.getByRole('row', { name: /console\.leaver/ });
      await row.getByRole('button', { name: 'Disable console.leaver' }).click();
      await row.getByRole('button', { name: 'Enable console.leaver' }).waitFor();
      await t.callBean('orderServiceImpl', 'getOrdersFromLoggedUser', [], { token: user.token }).expect(401);
      await keepScreen('users');
      expect(await seriousViolations()).toEqual([]);
    }));

  it('should not be served when CONSOLE_ENABLED is false', async () => {
    const off = await startTestApp({ env: { CONSOLE_ENABLED: 'false' } });
    try {
      expect((await fetch(`${off.url}/console/`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it('should speak German when asked, and fit a phone', () =>
    scenario('german', async () => {
      await openAs(null);
      await page.getByLabel('Language').selectOption('de');
      await page.getByLabel('Beans und Methoden suchen').waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
      expect(await seriousViolations()).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByLabel('Beans und Methoden suchen').fill('getCountryByCode');
      await page.getByRole('button', { name: 'geoLocationServiceImpl.getCountryByCode' }).click();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await keepScreen('phone');
      expect(await seriousViolations()).toEqual([]);
    }));
});
