import fc from 'fast-check';
import { BeanMethod } from '../../src/bean/bean-descriptor';
import { BeanRegistry } from '../../src/bean/bean-registry';
import { Role } from '../../src/common/principal';
import { ParamType } from '../../src/bean/param-types';
import { TestApp } from '../support/test-app';
import { anyJson, anyKey, anyNumber, anyText, deeplyNested, headerValue } from './support/arbitraries';
import { assertCleanAnswer, assertHealthy, beanCall, FuzzClient, startFuzzApp } from './support/fuzz-http';
import { checkProperty, fuzzRuns, fuzzTimeout } from './support/fuzz-property';

/**
 * The unified call `POST /api/v1/bean/request` under random envelopes, argument forms, context headers and bodies:
 * every answer is a 200 or a DESIGN §3 4xx, and the app is still healthy afterwards.
 */
const RUNS = fuzzRuns(150);
const TIMEOUT = fuzzTimeout(RUNS, 60);
/** Stands for a deeply nested value, spliced into the JSON text (fast-check would take long to build one). */
const DEEP = '\u0001deep\u0001';

/** Field names the beans' DTOs use, so that random maps sometimes get past the first checks. */
const DTO_FIELDS = [
  'id',
  'name',
  'type',
  'total',
  'quantity',
  'orderId',
  'sellerSkuId',
  'items',
  'html',
  'path',
  'title',
  'status',
  'country',
  'email',
  'url',
  'language',
  'published',
  'confirm',
  'content',
  'buyerId',
  'paymentMethodId',
];

function typedArgument(type: ParamType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'String':
      return fc.oneof({ weight: 4, arbitrary: anyText }, { weight: 1, arbitrary: anyJson });
    case 'int':
      return fc.oneof(anyNumber, anyNumber.map(String), anyJson);
    case 'boolean':
      return fc.oneof(fc.boolean(), anyJson);
    case 'IdList':
      return fc.oneof(fc.array(anyText, { maxLength: 5 }), anyJson);
    default: {
      const key = fc.oneof(fc.constantFrom(...DTO_FIELDS), anyKey);
      const map = fc
        .array(fc.tuple(key, anyJson), { maxLength: 6 })
        .map((entries) => Object.assign(Object.create(null) as object, Object.fromEntries(entries)));
      return fc.oneof({ weight: 4, arbitrary: map }, { weight: 1, arbitrary: anyJson });
    }
  }
}

/** Arguments for `method`: of its types, of the wrong arity, of any JSON, or deeply nested. */
function argumentsFor(method: BeanMethod): fc.Arbitrary<unknown[]> {
  const typed = fc.tuple(...method.params.map(typedArgument));
  return fc.oneof(
    { weight: 5, arbitrary: typed },
    { weight: 1, arbitrary: typed.map((args) => args.slice(1)) },
    { weight: 1, arbitrary: fc.tuple(typed, anyJson).map(([args, extra]) => [...args, extra]) },
    { weight: 2, arbitrary: fc.array(anyJson, { maxLength: 4 }) },
    { weight: 1, arbitrary: typed.map((args) => [...args.slice(1), DEEP]) },
  );
}

/** One of the three argument forms of DESIGN §2 (the indexed ones are what a client sends for positional ones). */
function inSomeForm(args: unknown[]): fc.Arbitrary<unknown[]> {
  const indexedOne = [Object.fromEntries(args.map((arg, index) => [String(index), arg]))];
  const indexedEach = args.map((arg, index) => ({ [String(index)]: arg }));
  return fc.constantFrom(args, indexedOne, indexedEach);
}

/** A call the examples build on (a file they write into, say). */
async function beanCallOk(client: FuzzClient, envelope: object, { token }: Caller): Promise<void> {
  const response = await client.send(beanCall(envelope, { token }));
  if (response.status !== 200) throw new Error(`Setting up answered ${response.status}: ${response.text}`);
}

interface Caller {
  token?: string;
  accept?: string;
}

describe('Fuzzing the bean call envelope', () => {
  let t: TestApp;
  let client: FuzzClient;
  let methods: BeanMethod[];
  let callers: Caller[];

  beforeAll(async () => {
    t = await startFuzzApp();
    client = new FuzzClient(t.url);
    methods = t.app
      .get(BeanRegistry)
      .list()
      .flatMap((bean) => [...bean.functions.values()].flatMap((fn) => fn.overloads));
    callers = [
      {},
      { token: t.tokenFor(Role.USER) },
      { token: t.tokenFor(Role.ADMIN) },
      { token: t.tokenFor(Role.ADMIN), accept: 'application/pdf' },
    ];
  });
  afterAll(async () => {
    client.close();
    await t.stop();
  });

  const caller = () => fc.constantFrom(...callers);

  /** A known function with random arguments, or random names; random scope; sometimes other envelope keys. */
  const envelope = () =>
    fc
      .oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(...methods).chain((method) =>
            argumentsFor(method)
              .chain(inSomeForm)
              .map((args) => ({ beanId: method.beanId, functionName: method.name, args })),
          ),
        },
        {
          weight: 1,
          arbitrary: fc.record({ beanId: anyText, functionName: anyText, args: fc.array(anyJson, { maxLength: 3 }) }),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(...methods)
            .chain((method) =>
              fc
                .constantFrom(
                  'constructor',
                  '__proto__',
                  'toString',
                  'hasOwnProperty',
                  'valueOf',
                  `${method.name}Impl`,
                  'handler',
                )
                .map((functionName) => ({ beanId: method.beanId, functionName, args: [] })),
            ),
        },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.constantFrom('beanId', 'functionName', 'args', 'scope', '__proto__'), anyJson),
        },
      )
      .chain((value) =>
        fc
          .option(fc.oneof(fc.constantFrom('PROTOTYPE', 'SINGLETON'), anyJson), { freq: 3 })
          .map((scope) => (scope === null || typeof value !== 'object' ? value : { ...value, scope })),
      );

  const deep = fc.record({
    depth: fc.integer({ min: 1, max: 20_000 }),
    kind: fc.constantFrom<'array' | 'object'>('array', 'object'),
  });

  it(
    'should answer any envelope and arguments with a 200 or a DESIGN §3 4xx',
    async () => {
      const admin = () => callers[2];
      const shallow = { depth: 1, kind: 'array' as const };
      await beanCallOk(
        client,
        { beanId: 'fileManagerServiceMock', functionName: 'saveContentToFile', args: ['a.txt', '', 'x'] },
        admin(),
      );
      await beanCallOk(client, { beanId: 'vcsProvider', functionName: 'init', args: [] }, admin());
      await checkProperty(
        'bean call: envelope and arguments',
        fc.asyncProperty(envelope(), caller(), deep, async (call, { token, accept }, { depth, kind }) => {
          const request = beanCall(call, { token, headers: accept ? { Accept: accept } : {} });
          request.body = String(request.body).replace(JSON.stringify(DEEP), deeplyNested(depth, kind));
          assertCleanAnswer(await client.send(request), (status) => status === 200);
        }),
        RUNS,
        [
          // found by fuzzing: a Map argument a few thousand levels deep overflowed the stack in DTO conversion (500)
          [
            { beanId: 'shoppingCartServiceImpl', functionName: 'addCommerceItems', args: [DEEP] },
            {},
            { depth: 2372, kind: 'object' },
          ],
          // found by fuzzing: a path segment longer than the file system takes was a 500 (ENAMETOOLONG)
          [
            { beanId: 'fileManagerServiceMock', functionName: 'saveContentToFile', args: [' ', 'x'.repeat(300), ''] },
            admin(),
            shallow,
          ],
          // found by fuzzing: an empty commit message failed inside isomorphic-git (500)
          [{ beanId: 'vcsProvider', functionName: 'commit', args: [''] }, admin(), shallow],
          // found beside it: a file standing where a directory must be was a 500 too (EEXIST/ENOTDIR)
          [
            { beanId: 'fileManagerServiceMock', functionName: 'saveContentToFile', args: ['b', 'a.txt', ''] },
            admin(),
            shallow,
          ],
        ],
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );

  const contentType = fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/*+json',
      'application/merge-patch+json',
      '*/*',
      '',
    ),
    headerValue,
  );
  const rawBody = fc.oneof(
    fc.string({ maxLength: 200 }),
    anyJson.map((value) => JSON.stringify(value) ?? ''),
    fc.constantFrom(
      '{',
      '[]',
      'null',
      '"x"',
      '{"beanId":',
      'beanId=a&functionName=b&args=c',
      '{"__proto__":{"x":1}}',
      '\uFEFF{}',
    ),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  );

  it(
    'should answer any body under any content type with a DESIGN §3 4xx (or a 200 for a valid call)',
    async () => {
      const token = t.tokenFor(Role.USER);
      await checkProperty(
        'bean call: body and content type',
        fc.asyncProperty(contentType, rawBody, fc.boolean(), async (type, body, withToken) => {
          const headers: Record<string, string> = { 'Lang-Context': 'en', 'Site-Context': 'default' };
          if (type !== '') headers['Content-Type'] = type;
          if (withToken) headers.Authorization = `Bearer ${token}`;
          const response = await client.send({ path: '/api/v1/bean/request', headers, body });
          assertCleanAnswer(response, (status) => status === 200);
        }),
        RUNS,
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );

  it(
    'should answer any context headers and authorization with a 200 or a DESIGN §3 4xx',
    async () => {
      const tokens = [t.tokenFor(Role.USER), 'not.a.token', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'];
      const authorization = fc.oneof(
        fc.constantFrom(...tokens).map((token) => `Bearer ${token}`),
        fc.constantFrom('Bearer', 'Basic YTpi', 'bearer x', ''),
        headerValue,
      );
      const optional = (arbitrary: fc.Arbitrary<string>) => fc.option(arbitrary, { freq: 4 });
      await checkProperty(
        'bean call: context headers and authorization',
        fc.asyncProperty(
          optional(headerValue),
          optional(headerValue),
          optional(authorization),
          async (lang, site, auth) => {
            const headers: Record<string, string> = { 'Content-Type': 'application/json' };
            if (lang !== null) headers['Lang-Context'] = lang;
            if (site !== null) headers['Site-Context'] = site;
            if (auth !== null) headers.Authorization = auth;
            const body = JSON.stringify({
              beanId: 'profileSearchServiceImpl',
              functionName: 'getRepository',
              args: [],
            });
            assertCleanAnswer(
              await client.send({ path: '/api/v1/bean/request', headers, body }),
              (status) => status === 200,
            );
          },
        ),
        RUNS,
      );
      await assertHealthy(client);
    },
    TIMEOUT,
  );
});
