import { INestApplication } from '@nestjs/common';
import { SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { buildOpenApiDocument } from './openapi';

export const SWAGGER_UI_PATH = 'api/docs';
export const OPENAPI_PATH = 'api/v1/openapi.json';

/**
 * Serves the OpenAPI document and Swagger UI (assets from swagger-ui-dist, no CDN). The document is built once, on the
 * first request, when the registry is ready. Helmet's default CSP suits the UI (scripts are same-origin files,
 * styles may be inline) except `upgrade-insecure-requests`, which would break the page on a plain-HTTP host.
 */
export function setupApiDocs(app: INestApplication): void {
  app.use(`/${SWAGGER_UI_PATH}`, helmet.contentSecurityPolicy({ directives: { upgradeInsecureRequests: null } }));
  SwaggerModule.setup(SWAGGER_UI_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_PATH,
    raw: ['json'],
    customSiteTitle: 'Content and Commerce Backend API',
  });
}
