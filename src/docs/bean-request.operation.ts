import type { OperationObject, SchemaObject } from '@nestjs/swagger';
import { ERROR_CODES } from '../common/errors/error-codes';
import { ACCESS_BY_ROLE, CatalogueBean } from './bean-catalogue';

export const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

/** The DESIGN §3 error body, shared by every operation's error responses. */
export const ERROR_BODY_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['code', 'error', 'message', 'status', 'path', 'timestamp', 'requestId'],
  properties: {
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CODES),
      description: `stable, for clients to branch on (the message is for people and may change):\n\n${codeTable()}`,
    },
    error: { type: 'string', description: 'reason phrase; "Access denied" for every 403' },
    message: { type: 'string' },
    status: { type: 'integer' },
    path: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    requestId: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function codeTable(): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, { status, meaning }]) => `| \`${code}\` | ${status} | ${meaning} |`,
  );
  return ['| code | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

const ERRORS: Record<string, string> = {
  '400':
    'bad envelope or header, unknown function or overload (the message lists the signatures), argument mismatch, validation',
  '401': 'protected method without a valid token or session, or an invalid token on any method',
  '403': 'role too low ("Access denied")',
  '404': 'unknown bean or entity',
  '409': 'illegal state transition or duplicate',
  '413': 'body over the JSON limit',
  '429': 'too many calls of this principal',
};

/**
 * `POST /api/v1/bean/request`, with the bean catalogue for people (a Markdown table per bean in the description,
 * which Swagger UI renders) and for programs (`x-bean-catalogue` on the operation and on the document root).
 */
export function beanRequestOperation(catalogue: CatalogueBean[]): OperationObject {
  return {
    operationId: 'callBean',
    tags: ['Beans'],
    summary: 'Call an exposed method of a bean (the unified call)',
    description: [INTRODUCTION, ...catalogue.map(beanTable)].join('\n\n'),
    security: [{}, { bearer: [] }, { session: [] }],
    parameters: [
      { name: 'Lang-Context', in: 'header', required: true, schema: { type: 'string', example: 'en' } },
      { name: 'Site-Context', in: 'header', required: true, schema: { type: 'string', example: 'default' } },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: envelopeSchema(catalogue), examples: EXAMPLES } },
    },
    responses: {
      '200': {
        description:
          'The return value itself: `null` for void, Spring-shaped pages, base64 bytes (raw bytes when `Accept` asks for `application/pdf` or `application/octet-stream`)',
        content: {
          'application/json': { schema: {} },
          'application/pdf': { schema: { type: 'string', format: 'binary' } },
        },
      },
      ...Object.fromEntries(
        Object.entries(ERRORS).map(([status, description]) => [
          status,
          { description, content: { 'application/json': { schema: { $ref: ERROR_BODY_REF } } } },
        ]),
      ),
    },
    'x-bean-catalogue': catalogue,
  } as OperationObject;
}

const INTRODUCTION = [
  'Arguments go in `args` in one of three forms: positional `["a", 5]`, indexed in one object `[{"0": "a", "1": 5}]`, or one object per argument `[{"0": "a"}, {"1": 5}]`.',
  'Overloads are picked by argument count, then by argument types. Access: ' +
    Object.entries(ACCESS_BY_ROLE)
      .map(([role, meaning]) => `**${role}**: ${meaning}`)
      .join('; ') +
    '.',
  'The same catalogue, machine-readable, is `x-bean-catalogue` (on this operation and on the document root).',
].join('\n\n');

const EXAMPLES = {
  positional: { value: { beanId: 'dummyTree', functionName: 'getElements', args: [] } },
  indexed: {
    value: { beanId: 'jobsManagementServiceImpl', functionName: 'startJob', args: [{ '0': 'import', '1': 100 }] },
  },
};

function envelopeSchema(catalogue: CatalogueBean[]): SchemaObject {
  return {
    type: 'object',
    required: ['beanId', 'functionName', 'args'],
    properties: {
      beanId: { type: 'string', enum: catalogue.map((bean) => bean.beanId) },
      functionName: { type: 'string' },
      scope: { type: 'string', enum: ['PROTOTYPE', 'SINGLETON'], default: 'PROTOTYPE' },
      args: { type: 'array', items: {} },
    },
  };
}

function beanTable(bean: CatalogueBean): string {
  const rows = bean.functions.flatMap((fn) => fn.overloads.map((o) => `| \`${o.signature}\` | ${o.role} |`));
  return [
    `### ${bean.beanId}`,
    `Default access: ${bean.role}.`,
    '',
    '| Signature | Access |',
    '|---|---|',
    ...rows,
  ].join('\n');
}
