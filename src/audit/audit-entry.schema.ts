import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes } from 'mongoose';

/** One change made by someone: who (or `system`), when, what, to which record. Never updated or deleted. */
@Schema({ collection: 'audit_entries', versionKey: false })
export class AuditEntry {
  /** The acting user's id, or `system` for the server's own work (sweeps, webhooks). */
  @Prop({ required: true }) actorId!: string;
  @Prop({ required: true }) actorName!: string;
  /** `GUEST`, `USER`, `ADMIN`, or `SYSTEM`. */
  @Prop({ required: true }) actorRole!: string;
  /** `<noun>.<verb>`, e.g. `product.update`, `seller.approve`, `user.disable`. */
  @Prop({ required: true }) action!: string;
  @Prop({ required: true }) targetType!: string;
  @Prop({ required: true }) targetId!: string;
  /** What changed, secrets redacted. */
  @Prop({ type: SchemaTypes.Mixed }) details?: Record<string, unknown>;
  /** The request that made the change (`X-Request-Id`), when there was one. */
  @Prop() requestId?: string;
  @Prop({ required: true, default: () => new Date() }) at!: Date;
}

export type AuditEntryDocument = HydratedDocument<AuditEntry>;
export const AuditEntrySchema = SchemaFactory.createForClass(AuditEntry);
/** A record's history, newest first (`getAuditTrail`), and the searches by actor and by time. */
AuditEntrySchema.index({ targetType: 1, targetId: 1, at: -1 });
AuditEntrySchema.index({ actorId: 1, at: -1 });
AuditEntrySchema.index({ at: -1 });
