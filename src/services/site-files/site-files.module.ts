import { Module } from '@nestjs/common';
import { SitePaths } from './site-paths';

@Module({ providers: [SitePaths], exports: [SitePaths] })
export class SiteFilesModule {}
