import { Module } from '@nestjs/common';
import { BinariesModule } from '../binaries/binaries.module';
import { DocumentStorageService } from './document-storage.service';

@Module({ imports: [BinariesModule], providers: [DocumentStorageService] })
export class DocumentStorageModule {}
