import { Module } from '@nestjs/common';
import { ContentStoreModule } from '../content/content-store.module';
import { BlogViewerService } from './blog-viewer.service';

@Module({ imports: [ContentStoreModule], providers: [BlogViewerService] })
export class BlogViewerModule {}
