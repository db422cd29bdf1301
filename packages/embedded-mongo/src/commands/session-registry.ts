import { Binary } from 'bson';
import type { Doc } from '../types';

/** hello reports logicalSessionTimeoutMinutes: 30. */
const SESSION_TIMEOUT_MS = 30 * 60 * 1000;

/** Logical sessions seen in `lsid` fields, for `$listLocalSessions` (sessions are otherwise stateless). */
export class SessionRegistry {
  private readonly sessions = new Map<string, Doc>();

  touch(lsid: unknown): void {
    if (!lsid || typeof lsid !== 'object') return;
    const id = (lsid as Doc).id;
    this.sessions.set(sessionKey(id), { _id: lsid, lastUse: new Date() });
  }

  end(lsids: unknown[]): void {
    for (const lsid of lsids) this.sessions.delete(sessionKey((lsid as Doc).id));
  }

  expireIdle(now = Date.now()): void {
    for (const [id, session] of this.sessions) {
      if (now - (session.lastUse as Date).getTime() > SESSION_TIMEOUT_MS) this.sessions.delete(id);
    }
  }

  list(): Doc[] {
    return [...this.sessions.values()];
  }
}

/** A session id's key: its bytes in full (a UUID's `String` decodes them as UTF-8, so distinct ids could share one). */
function sessionKey(id: unknown): string {
  return id instanceof Binary ? id.toString('hex') : String(id);
}
