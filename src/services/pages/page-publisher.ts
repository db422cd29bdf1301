import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { ContentContainer } from '../content/container.schema';
import { Page } from '../content/page.schema';
import { Route } from '../content/route.schema';
import { contentScope } from '../content/scope';
import { requireUri } from '../content/uri';
import { RouteRequestDto } from './page.dto';

interface RouteTarget {
  pageId: string;
  containerId?: string;
  containerType?: string;
}

/**
 * Publishes a page at URIs. Republishing a page elsewhere turns its earlier URIs into 301 redirects to the new one,
 * so links already out there keep working.
 */
@Injectable()
export class PagePublisher {
  constructor(
    @InjectModel(Page.name) private readonly pages: Model<Page>,
    @InjectModel(Route.name) private readonly routes: Model<Route>,
    @InjectModel(ContentContainer.name) private readonly containers: Model<ContentContainer>,
  ) {}

  async publish(request: RouteRequestDto): Promise<void> {
    const scope = contentScope();
    const page = await this.pages
      .findOne({ ...scope, pageUrl: request.pageName }, { _id: 1 })
      .lean()
      .exec();
    if (!page) throw new NotFoundException(`Page "${request.pageName}" not found`);
    const target: RouteTarget = { pageId: page._id.toHexString(), ...(await this.container(request)) };
    const primary = requireUri(`${request.pageRoot ?? ''}/${request.pageName}`, 'pageRoot');
    const uris = [primary, ...(request.copyTo ?? []).map((uri, i) => requireUri(uri, `copyTo[${i}]`))];
    await this.assertFree(uris, target.pageId);
    await this.routes
      .updateMany({ ...scope, pageId: target.pageId, uri: { $nin: uris } }, { $set: { redirectTo: primary } })
      .exec();
    for (const uri of uris) {
      await this.routes
        .updateOne({ ...scope, uri }, { $set: target, $unset: { redirectTo: 1 } }, { upsert: true })
        .exec();
    }
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
    const taken = await this.routes
      .findOne({ ...contentScope(), uri: { $in: uris }, pageId: { $ne: pageId }, redirectTo: { $exists: false } })
      .lean()
      .exec();
    if (taken) throw new ConflictException(`${taken.uri} already leads to another page`);
  }
}
