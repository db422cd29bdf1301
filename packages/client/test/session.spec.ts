import { IssuedToken, Session, TokenInfo } from '../src/session';

const jwt = (claims: object): string => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

/** Lets the renewal's promise chain run (a few microtask turns; no clock involved). */
async function settled(): Promise<void> {
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
}

describe('Session (token renewal)', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('should read the role and expiry claims of a token', () => {
    const session = new Session(jwt({ role: 'USER', exp: 1_000_000_100 }), () => undefined);
    expect(session.token).toMatchObject({ role: 'USER', expires: 1_000_000_100_000 });
  });

  it('should renew a token before it expires and tell the listeners', async () => {
    const renewed: IssuedToken = { token: jwt({ role: 'ADMIN', exp: 1_000_003_600 }), expires: 1_000_003_600_000 };
    const renew = jest.fn(async () => renewed);
    const seen: Array<TokenInfo | undefined> = [];
    const session = new Session(undefined, () => undefined);
    session.onChange((token) => seen.push(token));
    session.set({ token: jwt({ role: 'ADMIN' }), expires: Date.now() + 3_600_000 }, renew);
    jest.advanceTimersByTime(3_600_000 - 60_001);
    expect(renew).not.toHaveBeenCalled();
    jest.advanceTimersByTime(2);
    await settled();
    expect(renew).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toMatchObject({ token: renewed.token, expires: renewed.expires, role: 'ADMIN' });
    session.close();
  });

  it('should report a failed renewal and keep the token', async () => {
    const failed = jest.fn();
    const session = new Session(undefined, failed);
    const token = { token: jwt({}), expires: Date.now() + 10_000 };
    session.set(token, async () => Promise.reject(new Error('401')));
    jest.advanceTimersByTime(10_000);
    await settled();
    expect(failed).toHaveBeenCalledWith(new Error('401'));
    expect(session.token).toBe(token);
  });
});
