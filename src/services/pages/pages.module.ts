import { Module } from '@nestjs/common';
import { ContentStoreModule } from '../content/content-store.module';
import { PageCopier } from './page-copier';
import { PageManagementService } from './page-management.service';
import { PagePublisher } from './page-publisher';

@Module({ imports: [ContentStoreModule], providers: [PageManagementService, PageCopier, PagePublisher] })
export class PagesModule {}
