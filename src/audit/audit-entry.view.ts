import { AuditEntry } from './audit-entry.schema';

/** An audit entry as clients see it. */
export interface AuditEntryView {
  id: string;
  actor: { id: string; name: string; role: string };
  action: string;
  target: { type: string; id: string };
  details: Record<string, unknown> | null;
  requestId: string | null;
  at: string;
}

export function toAuditEntryView(entry: AuditEntry & { _id: unknown }): AuditEntryView {
  return {
    id: String(entry._id),
    actor: { id: entry.actorId, name: entry.actorName, role: entry.actorRole },
    action: entry.action,
    target: { type: entry.targetType, id: entry.targetId },
    details: entry.details ?? null,
    requestId: entry.requestId ?? null,
    at: new Date(entry.at).toISOString(),
  };
}
