import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Stored } from './content-views';
import { Page } from './page.schema';
import { contentScope } from './scope';

export type StoredPage = Stored<Page>;

/** Where a page is: its id, site and language (a copy's target may be in another language than the request's). */
export interface PagePlace {
  _id: Types.ObjectId;
  site: string;
  lang: string;
}

/**
 * The only code that writes the `pages` collection (checked by `test/architecture/collection-writers.spec.ts`), the
 * door of the shared content store to it: the content modules ask it by intent. "Here" is the request's site and
 * language (`contentScope()`). A `pageUrl` taken in its site and language rejects with the driver's duplicate-key
 * error, which each caller words as its 409.
 */
@Injectable()
export class PageRepository {
  constructor(@InjectModel(Page.name) private readonly pages: Model<Page>) {}

  /** The page `pageId` here, or null. */
  findHere(pageId: Types.ObjectId): Promise<StoredPage | null> {
    return this.pages
      .findOne({ _id: pageId, ...contentScope() })
      .lean<StoredPage>()
      .exec();
  }

  /** The id of the page here whose slug is `pageUrl`, or null. */
  async idOfUrlHere(pageUrl: string): Promise<Types.ObjectId | null> {
    const page = await this.pages
      .findOne({ ...contentScope(), pageUrl }, { _id: 1 })
      .lean()
      .exec();
    return page?._id ?? null;
  }

  /** Stores a new page; answers its id. */
  async insert(page: Partial<Page> & Pick<Page, 'site' | 'lang' | 'pageUrl'>): Promise<string> {
    const created = await this.pages.create(page);
    return created._id.toHexString();
  }

  /** Sets `fields` (validated) of the page here, removing its image if asked; false when there is no such page. */
  async updateHere(pageId: Types.ObjectId, fields: Partial<Page>, removeImage: boolean): Promise<boolean> {
    const update = { $set: fields, ...(removeImage ? { $unset: { imageUrl: 1 } } : {}) };
    const { matchedCount } = await this.pages
      .updateOne({ _id: pageId, ...contentScope() }, update, { runValidators: true })
      .exec();
    return matchedCount > 0;
  }

  /** Overwrites `fields` of the page at `place` (a copy's target); false when there is no such page. */
  async overwrite(place: PagePlace, fields: Partial<Page>): Promise<boolean> {
    const { matchedCount } = await this.pages.updateOne(place, { $set: fields }).exec();
    return matchedCount > 0;
  }

  /** Deletes the page here; false when there was no such page. */
  async deleteHere(pageId: Types.ObjectId): Promise<boolean> {
    const { deletedCount } = await this.pages.deleteOne({ _id: pageId, ...contentScope() }).exec();
    return deletedCount > 0;
  }

  /** Deletes those of `pageIds` that are pages here (others are ignored); answers their ids. */
  async deleteAllHere(pageIds: Types.ObjectId[]): Promise<string[]> {
    const existing = await this.pages
      .find({ _id: { $in: pageIds }, ...contentScope() }, { _id: 1 })
      .lean()
      .exec();
    await this.pages.deleteMany({ _id: { $in: existing.map((page) => page._id) } }).exec();
    return existing.map((page) => page._id.toHexString());
  }
}
