import { Role } from '../../src/common/principal';
import { TestStompClient } from '../realtime/stomp-client';
import { TestApp } from './test-app';

const REPLIES = '/user/topic/default/json';

/**
 * Inserts documents as a raw writer does: an admin's STOMP `/request/document` INSERT (extended JSON, no schema
 * casting). Answers the inserted ids.
 */
export async function insertRawDocuments(t: TestApp, collectionName: string, documents: object[]): Promise<string[]> {
  const admin = await TestStompClient.connect(t.url, { token: t.tokenFor(Role.ADMIN) });
  try {
    await admin.subscribe(REPLIES);
    const actionId = `insert-${collectionName}-${documents.length}`;
    admin.send('/request/document', { collectionName, requestType: 'INSERT', documents, actionId });
    type Reply = { actionId: string; status: number; payload: { insertedIds: unknown[] } };
    const reply = await admin.next<Reply>(REPLIES, (candidate) => candidate.actionId === actionId);
    if (reply.status !== 200) throw new Error(`INSERT into ${collectionName}: ${JSON.stringify(reply)}`);
    return reply.payload.insertedIds.map(String);
  } finally {
    await admin.disconnect();
  }
}
