import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ContextHeaders } from './context-headers';
import { Site, SiteSchema } from './site.schema';
import { SitesService } from './sites.service';

@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: Site.name, schema: SiteSchema }])],
  providers: [SitesService, ContextHeaders],
  exports: [SitesService, ContextHeaders],
})
export class SitesModule {}
