import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Route } from './route.schema';
import { contentScope } from './scope';

/** What a published URI leads to: a page, optionally shown with a container. */
export interface RouteTarget {
  pageId: string;
  containerId?: string;
  containerType?: string;
}

/**
 * The only code that writes the `routes` collection (checked by `test/architecture/collection-writers.spec.ts`), the
 * door of the shared content store to it: pages publish and remove their routes through it, containers detach from
 * theirs. "Here" is the request's site and language (`contentScope()`); a page's or container's removal reaches its
 * routes in every language of the site.
 */
@Injectable()
export class RouteRepository {
  constructor(@InjectModel(Route.name) private readonly routes: Model<Route>) {}

  /** A route here at one of `uris` that leads to a page other than `pageId` (a redirect is free), or null. */
  findLeadingElsewhere(uris: string[], pageId: string): Promise<Route | null> {
    return this.routes
      .findOne({ ...contentScope(), uri: { $in: uris }, pageId: { $ne: pageId }, redirectTo: { $exists: false } })
      .lean<Route>()
      .exec();
  }

  /**
   * Publishes the target's page here at `uris`, the first being its primary URI: every other URI of the page
   * becomes a redirect to the primary one (links already out there keep working), and each of `uris` leads to the
   * target, made or taken over (a redirect there is lifted).
   */
  async publish(target: RouteTarget, uris: string[]): Promise<void> {
    const scope = contentScope();
    const [primary] = uris;
    await this.routes
      .updateMany({ ...scope, pageId: target.pageId, uri: { $nin: uris } }, { $set: { redirectTo: primary } })
      .exec();
    for (const uri of uris) {
      await this.routes
        .updateOne({ ...scope, uri }, { $set: target, $unset: { redirectTo: 1 } }, { upsert: true })
        .exec();
    }
  }

  /** Removes the routes of the request's site that lead to the pages. */
  async removeOfPages(pageIds: string[]): Promise<void> {
    await this.routes.deleteMany({ site: contentScope().site, pageId: { $in: pageIds } }).exec();
  }

  /** Removes the routes of the request's site published for the container. */
  async removeOfContainer(containerId: string): Promise<void> {
    await this.routes.deleteMany({ site: contentScope().site, containerId }).exec();
  }

  /** The routes of the request's site that showed the containers keep their pages, without a container. */
  async detachContainers(containerIds: string[]): Promise<void> {
    await this.routes
      .updateMany(
        { site: contentScope().site, containerId: { $in: containerIds } },
        { $unset: { containerId: 1, containerType: 1 } },
      )
      .exec();
  }
}
