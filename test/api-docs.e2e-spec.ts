import { FetchOptions, JSDOM, ResourceLoader } from 'jsdom';
import { BeanRegistry } from '../src/bean';
import { Role } from '../src/common/principal';
import { ERROR_CODES } from '../src/common/errors/error-codes';
import { CatalogueBean } from '../src/docs/bean-catalogue';
import { startTestApp, TestApp } from './support/test-app';

describe('API documentation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.stop();
  });

  describe('OpenAPI', () => {
    let document: Record<string, any>;

    beforeAll(async () => {
      const res = await t.http
        .get('/api/v1/openapi.json')
        .expect(200)
        .expect('Content-Type', /application\/json/);
      document = res.body;
    });

    it('should be OpenAPI 3.1 of interface version 1.0.0 under the MIT license', () => {
      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toMatchObject({ version: '1.0.0', license: { name: 'MIT' } });
    });

    it('should document the REST endpoints', () => {
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/bean/request',
          '/api/v1/auth/token',
          '/api/v1/health',
          '/api/v1/health/live',
          '/api/v1/catalogue/offers',
          '/api/v1/catalogue/offers/{id}/stock/{warehouseId}',
          '/api/v1/invoices/mine',
          '/api/v1/invoices/{invoiceId}/pdf',
        ]),
      );
      expect(document.components.schemas.ErrorBody.required).toContain('requestId');
    });

    it('should list every error code in the error body', () => {
      const { required, properties } = document.components.schemas.ErrorBody;
      expect(required).toContain('code');
      expect(properties.code.enum).toEqual(Object.keys(ERROR_CODES));
      expect(properties.code.description).toContain('| `CART_EMPTY` | 409 | Checkout of an empty cart |');
      expect(document.security).toEqual([{ bearer: [] }, { session: [] }, {}]);
    });

    it('should list every registered bean, function and overload with its access level', () => {
      const catalogue = document['x-bean-catalogue'] as CatalogueBean[];
      const registry = t.app.get(BeanRegistry);
      expect(catalogue.map((bean) => bean.beanId).sort()).toEqual(
        registry
          .list()
          .map((bean) => bean.id)
          .sort(),
      );
      for (const bean of registry.list()) {
        const documented = catalogue.find((entry) => entry.beanId === bean.id)!;
        const signatures = documented.functions.flatMap((fn) => fn.overloads.map((o) => `${o.signature} ${o.role}`));
        const registered = [...bean.functions.values()].flatMap((fn) =>
          fn.overloads.map((m) => `${m.signature} ${m.role}`),
        );
        expect(signatures.sort()).toEqual(registered.sort());
      }
    });

    it('should describe parameters by type', () => {
      const jobs = (document['x-bean-catalogue'] as CatalogueBean[]).find(
        (bean) => bean.beanId === 'jobsManagementServiceImpl',
      )!;
      const startJob = jobs.functions.find((fn) => fn.name === 'startJob')!.overloads[0];
      expect(startJob).toMatchObject({ signature: 'startJob(String, int)', role: Role.ADMIN });
      expect(startJob.params.map((p) => p.type)).toEqual(['String', 'int']);
    });

    it('should describe validated maps by their DTO, with the defaults', () => {
      const jobs = (document['x-bean-catalogue'] as CatalogueBean[]).find(
        (bean) => bean.beanId === 'jobsManagementServiceImpl',
      )!;
      const [job] = jobs.functions.find((fn) => fn.name === 'createJob')!.overloads[0].params;
      expect(job.type).toBe('Map<JobDto>');
      expect(job.schema).toMatchObject({
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', minLength: 1, maxLength: 200 },
          progress: { type: 'integer', minimum: 0, maximum: 100, default: 0 },
        },
      });
    });

    it('should describe the unified call with the catalogue for people and programs', () => {
      const operation = document.paths['/api/v1/bean/request'].post;
      expect(operation.requestBody.content['application/json'].schema.properties.beanId.enum).toContain('dummyTree');
      expect(operation.description).toContain('### dummyTree');
      expect(operation.description).toContain('| `getElements()` | ADMIN |');
      expect(operation['x-bean-catalogue']).toEqual(document['x-bean-catalogue']);
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(['Lang-Context', 'Site-Context']);
    });
  });

  describe('Swagger UI', () => {
    it('should serve the page with same-origin scripts only, under a CSP that allows them', async () => {
      const res = await t.http
        .get('/api/docs')
        .expect(200)
        .expect('Content-Type', /text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(body.trim()).toBe('');
        expect(attributes).toMatch(/src="(?!https?:|\/\/)[^"]+"/);
      }
    });

    it.each(['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui-init.js', 'swagger-ui.css'])(
      'should serve its asset %s offline',
      async (asset) => {
        const res = await t.http.get(`/api/docs/${asset}`).expect(200);
        expect(res.text.length).toBeGreaterThan(100);
      },
    );
  });

  describe('Swagger UI in a browser (jsdom)', () => {
    /** Loads every script and stylesheet the page asks for, recording where from. */
    class RecordingLoader extends ResourceLoader {
      readonly urls: string[] = [];

      override fetch(url: string, options: FetchOptions) {
        this.urls.push(url);
        return super.fetch(url, options);
      }
    }

    it('should render the operations from its own assets only', async () => {
      const loader = new RecordingLoader();
      const dom = await JSDOM.fromURL(`${t.url}/api/docs`, {
        runScripts: 'dangerously',
        resources: loader,
        pretendToBeVisual: true,
      });
      try {
        const rendered = await waitFor(() => dom.window.document.querySelectorAll('.opblock').length > 0);
        expect(rendered).toBe(true);
        expect(dom.window.document.querySelector('.title')?.textContent).toContain('1.0.0');
        expect(loader.urls.length).toBeGreaterThan(2);
        expect(loader.urls.filter((url) => new URL(url).origin !== t.url)).toEqual([]);
      } finally {
        dom.window.close();
      }
    });
  });

  describe('AsyncAPI', () => {
    it('should describe the STOMP servers, request destinations and topics', async () => {
      const res = await t.http.get('/api/v1/asyncapi.json').expect(200);
      expect(res.body).toMatchObject({ asyncapi: '3.0.0', info: { version: '1.0.0', license: { name: 'MIT' } } });
      expect(res.body.servers.websocket).toMatchObject({ pathname: '/ws', host: new URL(t.url).host });
      const addresses = Object.values(res.body.channels as Record<string, { address: string }>).map((c) => c.address);
      expect(addresses).toEqual(
        expect.arrayContaining([
          '/request/bean',
          '/request/repository',
          '/user/topic/{site}/json',
          '/topic/job/{id}',
          '/topic/catalogue',
          '/topic/users',
          '/topic/seller-applications',
          '/topic/seller-onboarding/{userId}',
        ]),
      );
      expect(res.body.operations.receiveRequestBean).toEqual({
        action: 'receive',
        channel: { $ref: '#/channels/requestBean' },
      });
      expect(res.body.channels.job).toMatchObject({
        parameters: { id: { description: expect.any(String) } },
        messages: { LiveEvent: {} },
      });
    });
  });
});

/** Polls `condition` until it holds (true) or `timeoutMs` passed (false): generous, jsdom runs Swagger UI's bundle. */
async function waitFor(condition: () => boolean, timeoutMs = 90_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (condition()) return true;
  }
  return false;
}
