import { Module } from '@nestjs/common';
import { BinariesModule } from '../binaries/binaries.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { ContentStoreModule } from '../content/content-store.module';
import { JobsModule } from '../jobs/jobs.module';
import { SitemapController } from './sitemap.controller';
import { SitemapFileStore } from './sitemap-files';
import { SitemapGeneratorService } from './sitemap-generator.service';
import { SitemapSources } from './sitemap-sources';

@Module({
  imports: [BinariesModule, CatalogueModule, ContentStoreModule, JobsModule],
  controllers: [SitemapController],
  providers: [SitemapGeneratorService, SitemapSources, SitemapFileStore],
})
export class SitemapModule {}
