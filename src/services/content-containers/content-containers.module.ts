import { Module } from '@nestjs/common';
import { ContentStoreModule } from '../content/content-store.module';
import { ContentContainerService } from './content-container.service';

@Module({ imports: [ContentStoreModule], providers: [ContentContainerService] })
export class ContentContainersModule {}
