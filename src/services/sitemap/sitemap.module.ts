import { Module } from '@nestjs/common';
import { ContentStoreModule } from '../content/content-store.module';
import { JobsModule } from '../jobs/jobs.module';
import { SiteFilesModule } from '../site-files/site-files.module';
import { SitemapController } from './sitemap.controller';
import { SitemapFileStore } from './sitemap-files';
import { SitemapGeneratorService } from './sitemap-generator.service';
import { SitemapSources } from './sitemap-sources';

@Module({
  imports: [ContentStoreModule, JobsModule, SiteFilesModule],
  controllers: [SitemapController],
  providers: [SitemapGeneratorService, SitemapSources, SitemapFileStore],
})
export class SitemapModule {}
