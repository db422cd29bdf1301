import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { InvoiceKind } from './invoice';
import type { InvoiceDraft } from './invoice';

/**
 * One issued invoice in the register: its legal number, who may read it, and everything its PDF shows. Inserting
 * the record is what claims the number (see the accounting README, "Invoice numbers"), so a number exists exactly
 * when its invoice does; the PDF is rendered from `draft` afterwards and stored in GridFS as `fileId`.
 */
@Schema({ collection: 'invoice_register' })
export class InvoiceRecord {
  /** The numbering series: `seller:<sellerId>` for a seller's invoices to buyers, `platform:<kind>` for ours. */
  @Prop({ required: true }) series!: string;
  /** Calendar year (UTC) of `issuedAt`; numbering starts at 1 every year. */
  @Prop({ required: true }) year!: number;
  /** 1, 2, 3… within the series and year, without gaps. */
  @Prop({ required: true, min: 1 }) sequence!: number;
  /** Formatted by the series' pattern from `year` and `sequence` (`INV-2026-000001`); also the PDF's file name. */
  @Prop({ required: true }) number!: string;
  /**
   * What may be issued only once: `<kind>:<orderId>` for the buyer-to-vendor invoice, `<kind>:<orderId>:<content
   * digest>` for the marketplace's documents (a changed order gets a new one).
   */
  @Prop({ required: true }) once!: string;
  @Prop({ type: String, enum: Object.values(InvoiceKind), required: true }) kind!: InvoiceKind;
  @Prop({ required: true }) orderId!: string;
  /** The buyer billed (buyer-to-vendor invoices): they list and download it. */
  @Prop() buyerUserId?: string;
  /** The user acting for the order's seller: they download the invoices of the order. */
  @Prop() sellerUserId?: string;
  @Prop({ required: true }) issuedAt!: Date;
  @Prop({ required: true }) total!: number;
  @Prop({ required: true }) currency!: string;
  /** The whole content, numbered: the PDF can always be rendered again from it. */
  @Prop({ type: SchemaTypes.Mixed, required: true }) draft!: InvoiceDraft;
  /** The PDF in the `invoices` GridFS bucket, once stored. */
  @Prop({ type: SchemaTypes.ObjectId }) fileId?: Types.ObjectId;
}

export type StoredInvoiceRecord = InvoiceRecord & { _id: Types.ObjectId };
export type InvoiceRecordDocument = HydratedDocument<InvoiceRecord>;
export const InvoiceRecordSchema = SchemaFactory.createForClass(InvoiceRecord);
/** No two invoices share a number of a series: the claim of a number is the insert of its invoice. */
InvoiceRecordSchema.index({ series: 1, year: 1, sequence: 1 }, { unique: true });
/** Retried webhooks, two instances, an admin's call: an order's invoice is issued once. */
InvoiceRecordSchema.index({ once: 1 }, { unique: true });
/** A buyer's invoices, newest first (`GET /api/v1/invoices/mine`). */
InvoiceRecordSchema.index({ buyerUserId: 1, issuedAt: -1, _id: -1 });
/** An order's documents (`GET /api/v1/invoices/orders/{orderId}`). */
InvoiceRecordSchema.index({ orderId: 1, issuedAt: 1 });
