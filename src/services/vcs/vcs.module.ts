import { Module } from '@nestjs/common';
import { JobsModule } from '../jobs/jobs.module';
import { SiteFilesModule } from '../site-files/site-files.module';
import { VcsService } from './vcs.service';

@Module({ imports: [JobsModule, SiteFilesModule], providers: [VcsService] })
export class VcsModule {}
