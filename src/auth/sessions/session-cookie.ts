import type { CookieOptions, Request } from 'express';

/** Name of the session cookie (Spring Session's default, which existing clients know). */
export const SESSION_COOKIE = 'SESSION';

/** HttpOnly, SameSite=Lax, Secure in production; a persistent cookie only with "remember me". */
export function sessionCookieOptions(secure: boolean, expiresAt?: Date): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', ...(expiresAt ? { expires: expiresAt } : {}) };
}

/** The session id the request presents, if any (cookie-parser fills `cookies`). */
export function sessionIdOf(request: Request): string | undefined {
  const value: unknown = (request.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
