import { parse } from 'cookie';
import type { CookieOptions, Request } from 'express';

/** Name of the session cookie (Spring Session's default, which existing clients know). */
export const SESSION_COOKIE = 'SESSION';

/** HttpOnly, SameSite=Lax, Secure in production; a persistent cookie only with "remember me". */
export function sessionCookieOptions(secure: boolean, expiresAt?: Date): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/', ...(expiresAt ? { expires: expiresAt } : {}) };
}

/**
 * The session id the request presents, if any. Cookies are parsed here, only where a session can authenticate,
 * rather than on every request.
 */
export function sessionIdOf(request: Request): string | undefined {
  const header = request.headers.cookie;
  const value = header === undefined ? undefined : parse(header)[SESSION_COOKIE];
  return value !== undefined && value !== '' ? value : undefined;
}
