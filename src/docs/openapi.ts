import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SESSION_COOKIE } from '../auth/sessions/session-cookie';
import { BeanRegistry } from '../bean';
import { describeBeans } from './bean-catalogue';
import { beanRequestOperation, ERROR_BODY_SCHEMA } from './bean-request.operation';

export const INTERFACE_VERSION = '1.0.0';
export const BEAN_REQUEST_PATH = '/api/v1/bean/request';

/** The OpenAPI 3.1 document: every REST route Nest knows, plus the bean catalogue from the registry. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Content and Commerce Backend')
    .setDescription(
      'REST interface. Every service component is reached through `POST /api/v1/bean/request` (see the Beans tag); ' +
        'STOMP destinations are described in AsyncAPI at `/api/v1/asyncapi.json`.',
    )
    .setVersion(INTERFACE_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie' }, 'session')
    .addTag('Beans', 'The unified call and the bean catalogue')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  const catalogue = describeBeans(app.get(BeanRegistry).list());
  document.paths[BEAN_REQUEST_PATH] = { post: beanRequestOperation(catalogue) };
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ErrorBody: ERROR_BODY_SCHEMA },
  };
  // Every route reads a token or session when sent (roles are per route), so Swagger UI's "Authorize" applies to all.
  document.security = [{ bearer: [] }, { session: [] }, {}];
  return Object.assign(document, { 'x-bean-catalogue': catalogue });
}
