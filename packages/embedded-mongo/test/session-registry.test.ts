import { Binary } from 'bson';
import { SessionRegistry } from '../src/commands/session-registry';

/** A session id (UUID, subtype 4) whose last byte is `last`. */
function lsid(last: number) {
  const bytes = Buffer.alloc(16, 0xab);
  bytes[15] = last;
  return { id: new Binary(bytes, Binary.SUBTYPE_UUID) };
}

describe('logical sessions', () => {
  it('tells apart ids that differ only in bytes that are not UTF-8', () => {
    const sessions = new SessionRegistry();
    sessions.touch(lsid(0x80));
    sessions.touch(lsid(0x81));
    expect(sessions.list()).toHaveLength(2);
    sessions.end([lsid(0x80)]);
    expect(sessions.list().map((session) => session._id)).toEqual([lsid(0x81)]);
  });
});
