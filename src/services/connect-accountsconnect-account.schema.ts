import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument } from 'mongoose';

/** A payout destination of a connect account: a bank account or a debit card, only its last four digits kept. */
@Schema({ _id: false })
export class ExternalAccount {
  @Prop({ required: true, enum: ['bank_account', 'card'] }) type!: 'bank_account' | 'card';
  @Prop({ required: true }) last4!: string;
  @Prop({ required: true }) holderName!: string;
  @Prop({ required: true, uppercase: true }) currency!: string;
  @Prop() country?: string;
  @Prop() brand?: string;
}
export const ExternalAccountSchema = SchemaFactory.createForClass(ExternalAccount);

/**
 * The sandbox provider's connect account of one owner (a seller, or a user acting for no seller). Requirements
 * are derived: the business profile (`verifyAccount`), the terms accepted on the onboarding page, a payout account.
 */
@Schema({ collection: 'sandbox_connect_accounts', timestamps: true })
export class ConnectAccount {
  /** `seller:<sellerId>` or `user:<userId>`. */
  @Prop({ required: true, unique: true }) ownerKey!: string;
  @Prop({ index: true }) sellerId?: string;
  @Prop({ required: true }) userId!: string;
  @Prop() businessType?: string;
  @Prop() businessStructure?: string;
  @Prop() mcc?: string;
  @Prop() country?: string;
  @Prop() email?: string;
  @Prop() website?: string;
  @Prop() termsAcceptedAt?: Date;
  @Prop({ type: [ExternalAccountSchema], default: [] }) externalAccounts!: ExternalAccount[];
  /** The open onboarding link: a random capability, valid until `onboardingExpiresAt`. */
  @Prop({ index: true, sparse: true }) onboardingToken?: string;
  @Prop() onboardingExpiresAt?: Date;
  @Prop() refreshUrl?: string;
  @Prop() returnUrl?: string;
  createdAt?: Date;
}

export type ConnectAccountDocument = HydratedDocument<ConnectAccount>;
export const ConnectAccountSchema = SchemaFactory.createForClass(ConnectAccount);
