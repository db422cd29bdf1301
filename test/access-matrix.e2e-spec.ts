import { BeanMethod, BeanRegistry, ParamType } from '../src/bean';
import { Role } from '../src/common/principal';
import { startTestApp, TestApp } from './support/test-app';

/** One argument of the declared type, enough to pass overload resolution and reach the method. */
function sampleArgument(type: ParamType): unknown {
  switch (type) {
    case 'String':
      return 'x';
    case 'int':
      return 1;
    case 'boolean':
      return false;
    case 'IdList':
      return [];
    default:
      return {};
  }
}

const LOWER_ROLE: Partial<Record<Role, { role: Role; refusal: number }>> = {
  [Role.USER]: { role: Role.GUEST, refusal: 401 },
  [Role.ADMIN]: { role: Role.USER, refusal: 403 },
};

/** 400s of the gateway itself: the sample arguments did not select the method. */
const GATEWAY_REFUSAL = /^(No signature of|Argument \d+:|The key )/;

/**
 * DESIGN §2 for every method in the registry: the lowest allowed role gets through the gateway (200 or a domain
 * 4xx), the next lower role is refused (401 without a token where USER is needed, 403 for a USER where ADMIN is).
 * New beans join the matrix by being registered.
 */
describe('Access matrix (generated from the bean registry)', () => {
  let t: TestApp;
  let methods: BeanMethod[];

  beforeAll(async () => {
    t = await startTestApp({ env: { BEAN_RATE_LIMIT: '100000' } });
    methods = t.app
      .get(BeanRegistry)
      .list()
      .flatMap((bean) => [...bean.functions.values()].flatMap((fn) => [...fn.overloads]));
  });

  afterAll(async () => {
    await t.stop();
  });

  function call(method: BeanMethod, role: Role, token = role === Role.GUEST ? undefined : t.tokenFor(role)) {
    return t.callBean(method.beanId, method.name, method.params.map(sampleArgument), { token });
  }

  it('should cover every registered bean method, dummyTree.getElements included', () => {
    expect(methods.map((m) => `${m.beanId}.${m.signature}`)).toContain('dummyTree.getElements()');
  });

  it('should let the lowest allowed role of every method through the gateway', async () => {
    const failures: string[] = [];
    for (const method of methods) {
      const { status, body } = await call(method, method.role);
      const domainRefusal =
        status >= 400 && status < 500 && ![401, 403, 429].includes(status) && !GATEWAY_REFUSAL.test(body.message);
      if (status !== 200 && !domainRefusal)
        failures.push(`${method.beanId}.${method.signature} as ${method.role}: ${status} ${body.message}`);
    }
    expect(failures).toEqual([]);
  });

  it('should refuse the next lower role of every method', async () => {
    const failures: string[] = [];
    for (const method of methods) {
      const lower = LOWER_ROLE[method.role];
      if (!lower) continue;
      const { status } = await call(method, lower.role);
      if (status !== lower.refusal)
        failures.push(`${method.beanId}.${method.signature} as ${lower.role}: ${status}, expected ${lower.refusal}`);
    }
    expect(failures).toEqual([]);
  });

  it('should refuse an invalid token on every GUEST method', async () => {
    const failures: string[] = [];
    for (const method of methods.filter((m) => m.role === Role.GUEST)) {
      const { status } = await call(method, Role.GUEST, 'not-a-valid-token');
      if (status !== 401) failures.push(`${method.beanId}.${method.signature}: ${status}, expected 401`);
    }
    expect(failures).toEqual([]);
  });
});
