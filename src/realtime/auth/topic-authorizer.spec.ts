import { Principal, Role } from '../../common/principal';
import { EVERYONE, TopicAuthorizer } from './topic-authorizer';

const user: Principal = { id: 'u1', username: 'alice', role: Role.USER };
const admin: Principal = { id: 'a1', username: 'root', role: Role.ADMIN };

describe(TopicAuthorizer.name, () => {
  let authorizer: TopicAuthorizer;
  beforeEach(() => (authorizer = new TopicAuthorizer()));

  it('should leave unmatched topics public, even to guests', () => {
    expect(authorizer.mayFollow(null, '/topic/news')).toBe(true);
    expect(authorizer.isProtected('/topic/jobsite')).toBe(false);
  });

  it('should protect a pattern and everything below it', () => {
    expect(authorizer.isProtected('/topic/job/1')).toBe(true);
    expect(authorizer.isProtected('/topic/job/1/progress')).toBe(true);
    expect(authorizer.mayFollow(user, '/topic/job/1/progress')).toBe(false);
  });

  it('should let everyone follow an EVERYONE topic, guests too, while keeping it protected', () => {
    authorizer.register('/topic/catalogue', EVERYONE);
    expect(authorizer.mayFollow(null, '/topic/catalogue')).toBe(true);
    expect(authorizer.mayFollow(user, '/topic/catalogue')).toBe(true);
    expect(authorizer.isProtected('/topic/catalogue')).toBe(true);
  });

  it('should let ADMIN pass and stop guests', () => {
    expect(authorizer.mayFollow(admin, '/topic/order/9')).toBe(true);
    expect(authorizer.mayFollow(null, '/topic/customer/u1')).toBe(false);
  });

  it('should give a customer their own topic only', () => {
    expect(authorizer.mayFollow(user, '/topic/customer/u1')).toBe(true);
    expect(authorizer.mayFollow(user, '/topic/customer/u2')).toBe(false);
  });

  it('should replace a default rule with a registered one and pass it the parameters', async () => {
    authorizer.register('/topic/order/{id}', (principal, { id }) => Promise.resolve(id === `of-${principal.username}`));
    await expect(authorizer.mayFollow(user, '/topic/order/of-alice')).resolves.toBe(true);
    await expect(authorizer.mayFollow(user, '/topic/order/of-bob')).resolves.toBe(false);
  });
});
