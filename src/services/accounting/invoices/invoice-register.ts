import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../../common/mongo/duplicate-key';
import { InvoiceRequest } from './invoice';
import { formatNumber } from './number-pattern';
import { InvoiceRecord, StoredInvoiceRecord } from './invoice-record.schema';

/** Each failed claim means another invoice took the number, so this many in a row means something is wrong. */
const MAX_CLAIMS = 200;

/**
 * The invoice register: numbers invoices without gaps or duplicates per series and year, on any number of
 * instances. A number is claimed by inserting the invoice itself with `sequence = last + 1`; the unique index on
 * `{series, year, sequence}` lets one concurrent insert win and the others read the new last and try again. Since an
 * insert of `n + 1` needs `n` to exist (it was read, and records are never removed) and nothing but the insert takes
 * a number, the numbers of a year are always exactly 1..count: a failed insert takes none.
 */
@Injectable()
export class InvoiceRegister {
  constructor(@InjectModel(InvoiceRecord.name) private readonly records: Model<InvoiceRecord>) {}

  /** The invoice already issued for `once`, if any. */
  find(once: string): Promise<StoredInvoiceRecord | null> {
    return this.records.findOne({ once }).lean<StoredInvoiceRecord>().exec();
  }

  /** Numbers, dates and records the invoice; when another caller issued the same `once` meanwhile, answers theirs. */
  async claim(request: InvoiceRequest, once: string): Promise<StoredInvoiceRecord> {
    for (let attempt = 0; attempt < MAX_CLAIMS; attempt++) {
      try {
        return await this.insertNext(request, once);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const issued = await this.find(once);
        if (issued) return issued;
      }
    }
    throw new ServiceUnavailableException('Invoice numbering is busy; try again');
  }

  /** Sets the stored PDF once; the file id every caller must use (the first one stored). */
  async attachFile(id: Types.ObjectId, fileId: Types.ObjectId): Promise<Types.ObjectId> {
    await this.records.updateOne({ _id: id, fileId: { $exists: false } }, { $set: { fileId } }).exec();
    const record = await this.records.findById(id, { fileId: 1 }).lean<StoredInvoiceRecord>().exec();
    return record!.fileId!;
  }

  /** The invoice if `userId` is its buyer or acts for its seller; any invoice for `userId` null (an ADMIN). */
  findReadable(id: Types.ObjectId, userId: string | null): Promise<StoredInvoiceRecord | null> {
    const filter =
      userId === null ? { _id: id } : { _id: id, $or: [{ buyerUserId: userId }, { sellerUserId: userId }] };
    return this.records.findOne(filter).lean<StoredInvoiceRecord>().exec();
  }

  /** The documents of an order that `userId` may read (its buyer's and its seller's; all for null), oldest first. */
  ofOrder(orderId: string, userId: string | null): Promise<StoredInvoiceRecord[]> {
    const filter =
      userId === null ? { orderId } : { orderId, $or: [{ buyerUserId: userId }, { sellerUserId: userId }] };
    return this.records.find(filter, { draft: 0 }).sort({ issuedAt: 1, _id: 1 }).lean<StoredInvoiceRecord[]>().exec();
  }

  /** The buyer's invoices, newest first, and how many there are. */
  async ofBuyer(buyerUserId: string, page: number, size: number): Promise<[StoredInvoiceRecord[], number]> {
    const filter = { buyerUserId };
    return Promise.all([
      this.records
        .find(filter, { draft: 0 })
        .sort({ issuedAt: -1, _id: -1 })
        .skip(page * size)
        .limit(size)
        .lean<StoredInvoiceRecord[]>()
        .exec(),
      this.records.countDocuments(filter).exec(),
    ]);
  }

  /**
   * `sequence = last + 1` in the current year; the issue date is never before the last invoice's, so the numbers
   * also follow the dates.
   */
  private async insertNext({ draft, series, buyerUserId, sellerUserId }: InvoiceRequest, once: string) {
    const now = new Date();
    const year = now.getUTCFullYear();
    const last = await this.records
      .findOne({ series: series.key, year }, { sequence: 1, issuedAt: 1 })
      .sort({ sequence: -1 })
      .lean<StoredInvoiceRecord>()
      .exec();
    const sequence = (last?.sequence ?? 0) + 1;
    const issuedAt = last && last.issuedAt > now ? last.issuedAt : now;
    const number = formatNumber(series.pattern, year, sequence);
    const summary = draft.summary.at(-1);
    const record = await this.records.create({
      series: series.key,
      year,
      sequence,
      number,
      once,
      kind: draft.kind,
      orderId: draft.orderId,
      buyerUserId,
      sellerUserId,
      issuedAt,
      total: summary?.amount ?? 0,
      currency: draft.currency,
      draft: { ...draft, number, issuedAt },
    });
    return record.toObject<StoredInvoiceRecord>();
  }
}
