import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ContextHeaderCheck } from '../common/context-header-check';
import { ContextHeaders } from './context-headers';
import { Site, SiteSchema } from './site.schema';
import { SiteRepository } from './site-repository';
import { KnownSites } from './known-sites';

/** The sites; their model is reachable over STOMP as the public repository `sites` ({@link SiteRepository}). */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: Site.name, schema: SiteSchema }])],
  providers: [KnownSites, SiteRepository, ContextHeaders, { provide: ContextHeaderCheck, useExisting: ContextHeaders }],
  exports: [KnownSites, ContextHeaders, ContextHeaderCheck],
})
export class SitesModule {}
