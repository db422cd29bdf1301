import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { Attribute } from './attribute.schema';

export type StoredAttribute = Attribute & { _id: Types.ObjectId };

/** What an operator may change of an attribute: code and type stay, filters and stored values refer to them. */
export type AttributeLabels = Partial<Pick<Attribute, 'name' | 'unit'>>;

/**
 * The only code that writes the `attributes` collection (checked by `test/architecture/collection-writers.spec.ts`).
 * Every write goes through the attribute model, whose hooks refresh the storefront entries naming the attribute.
 */
@Injectable()
export class AttributeRepository {
  constructor(@InjectModel(Attribute.name) private readonly attributes: Model<Attribute>) {}

  /** Every attribute, by code. */
  byCode(): Promise<StoredAttribute[]> {
    return this.attributes.find().sort({ code: 1 }).lean<StoredAttribute[]>().exec();
  }

  /** The attribute, or null for an unknown id. */
  find(id: Types.ObjectId): Promise<StoredAttribute | null> {
    return this.attributes.findById(id).lean<StoredAttribute>().exec();
  }

  /** Rejects with a duplicate-key error for a code in use. */
  async create(attribute: Attribute): Promise<StoredAttribute> {
    return (await this.attributes.create(attribute)).toObject<StoredAttribute>();
  }

  /** The attribute after the change, or null for an unknown id. */
  relabel(id: Types.ObjectId, labels: AttributeLabels): Promise<StoredAttribute | null> {
    return this.attributes
      .findByIdAndUpdate(id, { $set: labels }, { returnDocument: 'after' })
      .lean<StoredAttribute>()
      .exec();
  }

  async delete(id: Types.ObjectId): Promise<void> {
    await this.attributes.deleteOne({ _id: id }).exec();
  }

  /** Fixed records (the demo data) whose id is not there yet; see {@link insertMissing}. */
  insertMissing(records: FixedRecord[]): Promise<void> {
    return insertMissing(this.attributes, records);
  }
}
