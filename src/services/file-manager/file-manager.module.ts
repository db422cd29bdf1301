import { Module } from '@nestjs/common';
import { SiteFilesModule } from '../site-files/site-files.module';
import { FileManagerService } from './file-manager.service';

@Module({ imports: [SiteFilesModule], providers: [FileManagerService] })
export class FileManagerModule {}
