import { TestApp } from '../../support/test-app';
import { claimsOf } from '../../auth/support/jwt-forge';
import { SmtpInbox } from '../../auth/support/smtp-inbox';

/** Someone with an account of their own, logged in: a buyer, or the user acting for a seller. */
export interface Person {
  id: string;
  username: string;
  token: string;
}

/**
 * Signs up as anyone would (the app runs with `AUTH_EMAIL_FLOWS=true`): registers, reads the verification token
 * from the mail `inbox` received, verifies the address and logs in with the password.
 */
export async function signUp(t: TestApp, inbox: SmtpInbox, username: string): Promise<Person> {
  const email = `${username}@shop.test`;
  const password = `${username}-password-1`;
  await t.http.post('/api/v1/auth/register').send({ username, email, password }).expect(201);
  const verification = await inbox.tokenSentTo(email);
  await t.http.post('/api/v1/auth/verify').send({ token: verification }).expect(200, { verified: true });
  const { body } = await t.http.post('/api/v1/auth/token').send({ username, password }).expect(200);
  const token = (body as { token: string }).token;
  return { id: String(claimsOf(token).sub), username, token };
}
