import { Module } from '@nestjs/common';
import { BinariesModule } from '../binaries/binaries.module';
import { CatalogueRevisionModule } from '../catalogue/catalogue-revision.module';
import { DocumentStorageService } from './document-storage.service';

@Module({ imports: [BinariesModule, CatalogueRevisionModule], providers: [DocumentStorageService] })
export class DocumentStorageModule {}
