import { Module } from '@nestjs/common';
import { BinariesModule } from '../binaries/binaries.module';
import { StorefrontRawWritesModule } from '../catalogue/storefront-raw-writes.module';
import { DocumentStorageService } from './document-storage.service';

@Module({ imports: [BinariesModule, StorefrontRawWritesModule], providers: [DocumentStorageService] })
export class DocumentStorageModule {}
