import { BadRequestException, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { Page } from '../content/page.schema';
import { pickDefined } from '../content/pick';
import { contentScope } from '../content/scope';
import { Route } from '../content/route.schema';
import { PageCopier } from './page-copier';
import { PageCopyRequestDto, PageRequestDto, RouteRequestDto } from './page.dto';
import { PagePublisher } from './page-publisher';

/** Pages of the current site (`Site-Context`) in the current language (`Lang-Context`). */
@Bean('pageManagementServiceImpl', Role.ADMIN)
export class PageManagementService {
  constructor(
    @InjectModel(Page.name) private readonly pages: Model<Page>,
    @InjectModel(Route.name) private readonly routes: Model<Route>,
    private readonly copier: PageCopier,
    private readonly publisher: PagePublisher,
  ) {}

  /** @returns the new page's id */
  @Exposed([MapOf(PageRequestDto)])
  async createPage(request: PageRequestDto): Promise<string> {
    if (!request.pageUrl) throw new BadRequestException('pageUrl is required');
    const page = await this.pages
      .create({ ...contentScope(), ...pageFields(request) })
      .catch(conflictOnDuplicate(`Page "${request.pageUrl}" exists`));
    return page._id.toHexString();
  }

  @Exposed([MapOf(PageRequestDto)])
  async updatePage(request: PageRequestDto): Promise<void> {
    if (!request.id) throw new BadRequestException('id is required');
    const fields = pageFields(request);
    if (request.imageUrlRemove) delete fields.imageUrl;
    const update = { $set: fields, ...(request.imageUrlRemove ? { $unset: { imageUrl: 1 } } : {}) };
    const found = await this.pages
      .updateOne({ _id: toObjectId(request.id, 'id'), ...contentScope() }, update, { runValidators: true })
      .exec()
      .catch(conflictOnDuplicate(`Page "${request.pageUrl}" exists`));
    if (found.matchedCount === 0) throw new NotFoundException(`Page ${request.id} not found`);
  }

  @Exposed(['String'])
  async deletePage(pageId: string): Promise<void> {
    const { deletedCount } = await this.pages
      .deleteOne({ _id: toObjectId(pageId, 'pageId'), ...contentScope() })
      .exec();
    if (deletedCount === 0) throw new NotFoundException(`Page ${pageId} not found`);
    await this.routes.deleteMany({ site: contentScope().site, pageId }).exec();
  }

  /** Deletes the listed pages of the current site and language; ids of other or missing pages are ignored. */
  @Exposed(['IdList'])
  async deletePages(pageIds: string[]): Promise<void> {
    const ids = pageIds.map((id, i) => toObjectId(id, `pageIds[${i}]`));
    const existing = await this.pages
      .find({ _id: { $in: ids }, ...contentScope() }, { _id: 1 })
      .lean()
      .exec();
    const doomed = existing.map((page) => page._id.toHexString());
    await this.pages.deleteMany({ _id: { $in: existing.map((page) => page._id) } }).exec();
    await this.routes.deleteMany({ site: contentScope().site, pageId: { $in: doomed } }).exec();
  }

  @Exposed([MapOf(PageCopyRequestDto)])
  async duplicatePage(request: PageCopyRequestDto): Promise<void> {
    await this.copier.duplicate(request);
  }

  @Exposed([MapOf(PageCopyRequestDto)])
  async copyPage(request: PageCopyRequestDto): Promise<void> {
    await this.copier.copyInto(request);
  }

  @Exposed([MapOf(RouteRequestDto)])
  async publishToUrl(request: RouteRequestDto): Promise<void> {
    await this.publisher.publish(request);
  }
}

const PAGE_FIELDS = [
  'imageUrl',
  'pageUrl',
  'containerType',
  'categoriesId',
  'content',
  'metaInfo',
  'published',
] as const;

function pageFields(request: PageRequestDto): Partial<Page> {
  const fields: Partial<Page> = pickDefined(request, PAGE_FIELDS);
  if (request.releaseDate !== undefined) fields.releaseDate = new Date(request.releaseDate);
  return fields;
}
