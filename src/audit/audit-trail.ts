import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Principal } from '../common/principal';
import { redactSecrets } from '../common/redaction';
import { RequestContext } from '../common/request-context';
import { AuditEntry } from './audit-entry.schema';

/** The server's own work (sweeps, provider webhooks), as an actor. */
export const SYSTEM_ACTOR = 'system';

export interface AuditRecord {
  /** Who acted; by default the current request's caller, or `system` outside a request. */
  actor?: Principal | typeof SYSTEM_ACTOR;
  /** `<noun>.<verb>`, e.g. `product.update`. */
  action: string;
  target: { type: string; id: string };
  /** What changed; values under secret-looking keys are redacted. */
  details?: Record<string, unknown>;
}

/**
 * Records every back-office change (who, when, what). The call is awaited by the change it records, after the
 * change: an entry that cannot be written fails the call, so nothing is answered as done without its entry.
 * @example await this.audit.record({ action: 'product.publish', target: { type: 'product', id } });
 */
@Injectable()
export class AuditTrail {
  constructor(@InjectModel(AuditEntry.name) private readonly entries: Model<AuditEntry>) {}

  async record({ actor, action, target, details }: AuditRecord): Promise<void> {
    const context = RequestContext.find();
    const who = actor ?? context?.principal ?? SYSTEM_ACTOR;
    await this.entries.create({
      ...(who === SYSTEM_ACTOR
        ? { actorId: SYSTEM_ACTOR, actorName: SYSTEM_ACTOR, actorRole: 'SYSTEM' }
        : { actorId: who.id, actorName: who.username, actorRole: who.role }),
      action,
      targetType: target.type,
      targetId: target.id,
      details: details && (redactSecrets(details) as Record<string, unknown>),
      requestId: context?.requestId,
    });
  }
}
