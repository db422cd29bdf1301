import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { ContentContainer } from '../content/container.schema';
import { PageRepository } from '../content/page.repository';
import { RouteRepository, RouteTarget } from '../content/route.repository';
import { contentScope } from '../content/scope';
import { requireUri } from '../content/uri';
import { RouteRequestDto } from './page.dto';

/**
 * Publishes a page at URIs. Republishing a page elsewhere turns its earlier URIs into 301 redirects to the new one,
 * so links already out there keep working.
 */
@Injectable()
export class PagePublisher {
  constructor(
    private readonly pages: PageRepository,
    private readonly routes: RouteRepository,
    @InjectModel(ContentContainer.name) private readonly containers: Model<ContentContainer>,
  ) {}

  async publish(request: RouteRequestDto): Promise<void> {
    const pageId = await this.pages.idOfUrlHere(request.pageName);
    if (!pageId) throw new NotFoundException(`Page "${request.pageName}" not found`);
    const target: RouteTarget = { pageId: pageId.toHexString(), ...(await this.container(request)) };
    const primary = requireUri(`${request.pageRoot ?? ''}/${request.pageName}`, 'pageRoot');
    const uris = [primary, ...(request.copyTo ?? []).map((uri, i) => requireUri(uri, `copyTo[${i}]`))];
    await this.assertFree(uris, target.pageId);
    await this.routes.publish(target, uris);
  }

  private async container(request: RouteRequestDto): Promise<Omit<RouteTarget, 'pageId'>> {
    if (!request.containerId) return request.containerType ? { containerType: request.containerType } : {};
    const id = toObjectId(request.containerId, 'containerId');
    const container = await this.containers
      .findOne({ _id: id, ...contentScope() }, { type: 1 })
      .lean()
      .exec();
    if (!container) throw new NotFoundException(`Container ${request.containerId} not found`);
    if (request.containerType && request.containerType !== container.type) {
      throw new BadRequestException(
        `containerType "${request.containerType}" differs from the container's type "${container.type}"`,
      );
    }
    return { containerId: request.containerId, containerType: container.type };
  }

  private async assertFree(uris: string[], pageId: string): Promise<void> {
    const taken = await this.routes.findLeadingElsewhere(uris, pageId);
    if (taken) throw new ConflictException(`${taken.uri} already leads to another page`);
  }
}
