import { Module } from '@nestjs/common';
import { SpaRouterModule } from '../router/router.module';
import { PageJsonHandler, PageRenderHandler } from './page-request.handlers';

/** Pages for visitors over STOMP: `/request/json` and `/request/render`. */
@Module({ imports: [SpaRouterModule], providers: [PageJsonHandler, PageRenderHandler] })
export class PageDeliveryModule {}
