import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

export enum ApplicationStatus {
  PENDING = 'PENDING',
  APPROVED = 'APPROVED',
  REJECTED = 'REJECTED',
}

/** The company a seller application names; it becomes the seller's company profile on approval. */
@Schema({ _id: false })
export class ApplicantCompany {
  @Prop({ required: true }) name!: string;
  @Prop({ required: true }) street!: string;
  @Prop({ required: true }) postalCode!: string;
  @Prop({ required: true }) city!: string;
  /** ISO 3166-1 alpha-2 code. */
  @Prop({ required: true }) country!: string;
  /** Normalized: capitals and digits, with the EU country prefix. */
  @Prop({ required: true }) vatId!: string;
  @Prop() email?: string;
}

/** A user's request to sell; an ADMIN decides it (or it is approved at once with `SELLER_ONBOARDING=open`). */
@Schema({ collection: 'seller_applications', timestamps: true })
export class SellerApplication {
  @Prop({ required: true }) userId!: string;
  @Prop({ required: true }) username!: string;
  @Prop({ type: ApplicantCompany, required: true }) company!: ApplicantCompany;
  @Prop({ type: String, enum: Object.values(ApplicationStatus), default: ApplicationStatus.PENDING })
  status!: ApplicationStatus;
  /** Why it was rejected. */
  @Prop() reason?: string;
  /** `system` when onboarding is open, else the deciding ADMIN's username. */
  @Prop() decidedBy?: string;
  @Prop() decidedAt?: Date;
  /** The seller and company profile made on approval. */
  @Prop() sellerId?: string;
  @Prop() profileId?: string;
}

export type SellerApplicationDocument = HydratedDocument<SellerApplication>;
export const SellerApplicationSchema = SchemaFactory.createForClass(SellerApplication);
/** One open application per user, also when two arrive at once. */
SellerApplicationSchema.index(
  { userId: 1 },
  { unique: true, name: 'one_pending_per_user', partialFilterExpression: { status: ApplicationStatus.PENDING } },
);
/** The operators' queue, oldest first: of one status, or of all. */
SellerApplicationSchema.index({ status: 1, createdAt: 1 });
SellerApplicationSchema.index({ createdAt: 1, _id: 1 });
/** An applicant's own applications, newest first. */
SellerApplicationSchema.index({ userId: 1, createdAt: -1 });
