import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Principal } from '../../common/principal';
import { SessionAuthenticator } from '../auth-hooks';
import { UserAccounts } from '../users/user-accounts';
import { sessionIdOf } from './session-cookie';
import { SessionStore } from './session-store';

/**
 * Authenticates requests without an `Authorization` header by their session cookie. An unknown or expired session,
 * or one of a disabled user, makes the caller a guest rather than a 401, so a stale cookie never blocks logging in.
 */
@Injectable()
export class SessionCookieAuthenticator extends SessionAuthenticator {
  constructor(
    private readonly sessions: SessionStore,
    private readonly users: UserAccounts,
  ) {
    super();
  }

  async authenticate(request: Request): Promise<Principal | null> {
    const sessionId = sessionIdOf(request);
    const userId = sessionId && (await this.sessions.userIdOf(sessionId));
    if (!userId) return null;
    const state = await this.users.accessState(userId);
    if (!state || state.disabled) return null;
    return { id: userId, username: state.username, role: state.role };
  }
}
