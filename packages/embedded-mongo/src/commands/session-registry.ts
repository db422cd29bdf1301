import type { Doc } from '../types';

/** Logical sessions seen in `lsid` fields, for `$listLocalSessions` (sessions are otherwise stateless). */
export class SessionRegistry {
  private readonly sessions = new Map<string, Doc>();

  touch(lsid: unknown): void {
    if (!lsid || typeof lsid !== 'object') return;
    const id = (lsid as Doc).id;
    this.sessions.set(String(id), { _id: lsid, lastUse: new Date() });
  }

  end(lsids: unknown[]): void {
    for (const lsid of lsids) this.sessions.delete(String((lsid as Doc).id));
  }

  list(): Doc[] {
    return [...this.sessions.values()];
  }
}
