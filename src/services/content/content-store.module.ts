import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ContentContainer, ContentContainerSchema } from './container.schema';
import { ContentQueries } from './content-queries';
import { PageRepository } from './page.repository';
import { Page, PageSchema } from './page.schema';
import { RouteRepository } from './route.repository';
import { Route, RouteSchema } from './route.schema';

const models = MongooseModule.forFeature([
  { name: Page.name, schema: PageSchema },
  { name: Route.name, schema: RouteSchema },
  { name: ContentContainer.name, schema: ContentContainerSchema },
]);
const providers = [ContentQueries, PageRepository, RouteRepository];

/**
 * The shared content store: the content collections (pages, routes, containers), their read queries and the doors
 * that write pages and routes ({@link PageRepository}, {@link RouteRepository}: one writer per collection). Unlike
 * every other model, these are shared by design by the content modules (pages, router, sitemap, content
 * containers), which read them directly; the model ownership test (`test/architecture`) allows exactly these.
 */
@Module({ imports: [models], providers, exports: [models, ...providers] })
export class ContentStoreModule {}
