import { Role } from '../../src/common/principal';
import { startTestApp, TestApp, TestUser } from '../support/test-app';

describe('Audit trail (auditServiceImpl)', () => {
  let t: TestApp;
  let operator: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.createUser({ username: 'operator.anna', role: Role.ADMIN });
  });

  afterAll(() => t.stop());

  const admin = () => ({ token: t.tokenFor(Role.ADMIN) });

  async function createProduct(name: string): Promise<string> {
    const { body } = await t.http
      .post('/api/v1/catalogue/products')
      .set('Authorization', `Bearer ${operator.token}`)
      .set('X-Request-Id', `req-${name.replace(/ /g, '-')}`)
      .send({ name, published: false })
      .expect(201);
    return body.id as string;
  }

  it("should record who created a product, when and in which request, in the product's trail", async () => {
    const before = Date.now();
    const id = await createProduct('Audited fern');
    const { body } = await t.callBean('auditServiceImpl', 'getAuditTrail', ['product', id], admin()).expect(200);
    expect(body).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        actor: { id: operator.id, name: 'operator.anna', role: 'ADMIN' },
        action: 'product.create',
        target: { type: 'product', id },
        details: { name: 'Audited fern', published: false },
        requestId: 'req-Audited-fern',
        at: expect.any(String),
      },
    ]);
    expect(Date.parse(body[0].at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('should find entries by action and actor, newest first', async () => {
    const first = await createProduct('Audited moss');
    const second = await createProduct('Audited ivy');
    const query = { query: { action: 'product.create', actorId: operator.id }, limit: 2 };
    const { body } = await t.callBean('auditServiceImpl', 'searchAuditEntries', [query], admin()).expect(200);
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.items.map((entry: { target: { id: string } }) => entry.target.id)).toEqual([second, first]);
  });

  it('should answer an empty trail for a record nobody changed', async () => {
    await t.callBean('auditServiceImpl', 'getAuditTrail', ['product', 'a'.repeat(24)], admin()).expect(200, []);
  });

  it.each([
    ['a blank target type', ['', 'x']],
    ['a blank id', ['product', ' ']],
    ['an operator object', [{ $ne: null }, 'x']],
    ['a missing argument', ['product']],
  ])('should refuse %s with a 400', async (_case, args) => {
    const { body } = await t.callBean('auditServiceImpl', 'getAuditTrail', args, admin()).expect(400);
    expect(body).toMatchObject({ status: 400, error: 'Bad Request', requestId: expect.any(String) });
  });

  it('should refuse a search with an operator in its query or an unknown field', async () => {
    for (const query of [{ query: { actorId: { $ne: null } } }, { query: { password: 'x' } }]) {
      await t.callBean('auditServiceImpl', 'searchAuditEntries', [query], admin()).expect(400);
    }
  });

  it('should show the trail to admins only (a user: 403, a guest: 401)', async () => {
    await t
      .callBean('auditServiceImpl', 'getAuditTrail', ['product', 'x'], { token: t.tokenFor(Role.USER) })
      .expect(403);
    await t.callBean('auditServiceImpl', 'searchAuditEntries', [{}]).expect(401);
  });
});
