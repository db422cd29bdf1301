import { randomUUID } from 'node:crypto';
import { Role } from '../../../src/common/principal';
import { UserDocument } from '../../../src/auth/users/user.schema';
import { UserAccounts } from '../../../src/auth/users/user-accounts';
import { TestApp } from '../../support/test-app';

export interface AccountOptions {
  username?: string;
  password?: string;
  role?: Role;
  verified?: boolean;
}

export interface Account {
  user: UserDocument;
  username: string;
  password: string;
}

/** Creates a real account through identity's own service; a unique username unless one is given. */
export async function createAccount(t: TestApp, options: AccountOptions = {}): Promise<Account> {
  const username = options.username ?? `user-${randomUUID().slice(0, 8)}`;
  const password = options.password ?? `pw-${randomUUID()}`;
  const user = await t.app.get(UserAccounts).create({
    username,
    email: `${username}@example.com`,
    password,
    role: options.role ?? Role.USER,
    verified: options.verified ?? true,
  });
  return { user, username, password };
}

/** Logs in through `POST /api/v1/auth/token` and returns the bearer token. */
export async function loginToken(t: TestApp, account: Account): Promise<string> {
  const response = await t.http
    .post('/api/v1/auth/token')
    .send({ username: account.username, password: account.password })
    .expect(200);
  return (response.body as { token: string }).token;
}
