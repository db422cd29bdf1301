import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ContentContainer, ContentContainerSchema } from './container.schema';
import { ContentQueries } from './content-queries';
import { Page, PageSchema } from './page.schema';
import { Route, RouteSchema } from './route.schema';

const models = MongooseModule.forFeature([
  { name: Page.name, schema: PageSchema },
  { name: Route.name, schema: RouteSchema },
  { name: ContentContainer.name, schema: ContentContainerSchema },
]);

/**
 * The shared content store: the content collections (pages, routes, containers) and their read queries. Unlike
 * every other model, these are shared by design by the content modules (pages, router, sitemap, content
 * containers), which inject them directly; the model ownership test (`test/architecture`) allows exactly these.
 */
@Module({ imports: [models], providers: [ContentQueries], exports: [models, ContentQueries] })
export class ContentStoreModule {}
