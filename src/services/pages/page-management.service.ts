import { BadRequestException, NotFoundException } from '@nestjs/common';
import { Bean, Exposed, MapOf } from '../../bean';
import { conflictOnDuplicate } from '../../common/mongo/duplicate-key';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { PageRepository } from '../content/page.repository';
import { Page } from '../content/page.schema';
import { pickDefined } from '../content/pick';
import { RouteRepository } from '../content/route.repository';
import { contentScope } from '../content/scope';
import { PageCopier } from './page-copier';
import { PageCopyRequestDto, PageRequestDto, RouteRequestDto } from './page.dto';
import { PagePublisher } from './page-publisher';

/** Pages of the current site (`Site-Context`) in the current language (`Lang-Context`). */
@Bean('pageManagementServiceImpl', Role.ADMIN)
export class PageManagementService {
  constructor(
    private readonly pages: PageRepository,
    private readonly routes: RouteRepository,
    private readonly copier: PageCopier,
    private readonly publisher: PagePublisher,
  ) {}

  /** @returns the new page's id */
  @Exposed([MapOf(PageRequestDto)])
  async createPage(request: PageRequestDto): Promise<string> {
    if (!request.pageUrl) throw new BadRequestException('pageUrl is required');
    return this.pages
      .insert({ ...contentScope(), ...pageFields(request), pageUrl: request.pageUrl })
      .catch(conflictOnDuplicate(`Page "${request.pageUrl}" exists`));
  }

  @Exposed([MapOf(PageRequestDto)])
  async updatePage(request: PageRequestDto): Promise<void> {
    if (!request.id) throw new BadRequestException('id is required');
    const fields = pageFields(request);
    if (request.imageUrlRemove) delete fields.imageUrl;
    const found = await this.pages
      .updateHere(toObjectId(request.id, 'id'), fields, request.imageUrlRemove)
      .catch(conflictOnDuplicate(`Page "${request.pageUrl}" exists`));
    if (!found) throw new NotFoundException(`Page ${request.id} not found`);
  }

  @Exposed(['String'])
  async deletePage(pageId: string): Promise<void> {
    const deleted = await this.pages.deleteHere(toObjectId(pageId, 'pageId'));
    if (!deleted) throw new NotFoundException(`Page ${pageId} not found`);
    await this.routes.removeOfPages([pageId]);
  }

  /** Deletes the listed pages of the current site and language; ids of other or missing pages are ignored. */
  @Exposed(['IdList'])
  async deletePages(pageIds: string[]): Promise<void> {
    const ids = pageIds.map((id, i) => toObjectId(id, `pageIds[${i}]`));
    const deleted = await this.pages.deleteAllHere(ids);
    await this.routes.removeOfPages(deleted);
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
