import { Injectable } from '@nestjs/common';
import { InjectModel, Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { DEFAULT_CREDIT_NOTE_PATTERN, DEFAULT_INVOICE_PATTERN } from './number-pattern';

/** A seller's number patterns for the documents it issues to buyers; absent: the defaults. */
@Schema({ collection: 'document_numbering', timestamps: true })
export class SellerNumbering {
  /** The seller's id. */
  @Prop({ type: String, required: true }) _id!: string;
  @Prop() invoicePattern?: string;
  @Prop() creditNotePattern?: string;
  /** Who set them last (a user id). */
  @Prop({ required: true }) updatedBy!: string;
}
export const SellerNumberingSchema = SchemaFactory.createForClass(SellerNumbering);

export interface NumberPatterns {
  invoicePattern: string;
  creditNotePattern: string;
}

/**
 * Each seller's number patterns (`number-pattern.ts`); the caller has validated them. A changed pattern numbers the
 * next documents only: the sequence of the year goes on (the series is the seller's, whatever its pattern).
 */
@Injectable()
export class DocumentNumbering {
  constructor(@InjectModel(SellerNumbering.name) private readonly numbering: Model<SellerNumbering>) {}

  async of(sellerId: string): Promise<NumberPatterns> {
    const stored = await this.numbering.findById(sellerId).lean().exec();
    return {
      invoicePattern: stored?.invoicePattern ?? DEFAULT_INVOICE_PATTERN,
      creditNotePattern: stored?.creditNotePattern ?? DEFAULT_CREDIT_NOTE_PATTERN,
    };
  }

  async set(sellerId: string, patterns: Partial<NumberPatterns>, by: string): Promise<NumberPatterns> {
    const set = { ...patterns, updatedBy: by };
    await this.numbering.updateOne({ _id: sellerId }, { $set: set }, { upsert: true }).exec();
    return this.of(sellerId);
  }
}
