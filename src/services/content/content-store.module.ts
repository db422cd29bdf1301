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

/** The content collections (pages, routes, containers) and the read queries shared by the content beans. */
@Module({ imports: [models], providers: [ContentQueries], exports: [models, ContentQueries] })
export class ContentStoreModule {}
