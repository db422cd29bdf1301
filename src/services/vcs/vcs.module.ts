import { Module } from '@nestjs/common';
import { SiteFilesModule } from '../site-files/site-files.module';
import { VcsService } from './vcs.service';

@Module({ imports: [SiteFilesModule], providers: [VcsService] })
export class VcsModule {}
