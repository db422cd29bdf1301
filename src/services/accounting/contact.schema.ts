import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A customer or supplier in the accounting ledger, kept from a profile (or from the account without one). */
@Schema({ collection: 'accounting_contacts', timestamps: true })
export class AccountingContact {
  /** `profile:<profileId>` or `user:<userId>`: one contact per profile or profile-less account. */
  @Prop({ required: true, unique: true }) ownerKey!: string;
  @Prop({ index: true }) userId?: string;
  @Prop() profileId?: string;
  @Prop({ required: true }) name!: string;
  @Prop() email?: string;
  @Prop() phone?: string;
  @Prop() street?: string;
  @Prop() postalCode?: string;
  @Prop() city?: string;
  @Prop() country?: string;
  @Prop() taxId?: string;
  updatedAt?: Date;
}

export const AccountingContactSchema = SchemaFactory.createForClass(AccountingContact);
