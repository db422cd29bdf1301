import { BadRequestException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Bean, Exposed } from '../bean';
import { Role } from '../common/principal';
import { parseSearchRequest, planSearch, runSearch, SearchSpec } from '../common/search';
import { AuditEntry } from './audit-entry.schema';
import { AuditEntryView, toAuditEntryView } from './audit-entry.view';

/** Most entries one record's history answers; older ones are reached with `searchAuditEntries`. */
export const MAX_TRAIL_ENTRIES = 200;

const SEARCH: SearchSpec = {
  searchableFields: ['action', 'targetType', 'actorName'],
  filterableFields: ['action', 'targetType', 'targetId', 'actorId', 'actorName', 'actorRole', 'requestId', 'at'],
  defaultSort: { at: -1 },
};

/** `auditServiceImpl` (ADMIN): who changed what and when, as recorded by {@link AuditTrail}. */
@Bean('auditServiceImpl', Role.ADMIN)
export class AuditService {
  constructor(@InjectModel(AuditEntry.name) private readonly entries: Model<AuditEntry>) {}

  /** Search request (DESIGN §6) over the entries, newest first unless sorted otherwise. */
  @Exposed(['Map'])
  async searchAuditEntries(requestMap: Record<string, unknown>): Promise<{ items: AuditEntryView[]; total: number }> {
    const plan = planSearch(parseSearchRequest(requestMap), SEARCH);
    const { content, total } = await runSearch<AuditEntry & { _id: unknown }>(this.entries, plan);
    return { items: content.map(toAuditEntryView), total };
  }

  /** The history of one record (e.g. `product`, its id), newest first, at most {@link MAX_TRAIL_ENTRIES}. */
  @Exposed(['String', 'String'])
  async getAuditTrail(targetType: string, targetId: string): Promise<AuditEntryView[]> {
    if (targetType.trim() === '' || targetId.trim() === '') {
      throw new BadRequestException('targetType and targetId must not be blank');
    }
    const entries = await this.entries
      .find({ targetType, targetId })
      .sort({ at: -1, _id: -1 })
      .limit(MAX_TRAIL_ENTRIES)
      .lean()
      .exec();
    return entries.map(toAuditEntryView);
  }
}
