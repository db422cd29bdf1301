import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { SitemapFileStore } from './sitemap-files';

/** Public: crawlers fetch `GET /api/v1/sites/{site}/sitemap.xml` (and the `sitemap-<n>.xml` files an index names). */
@ApiTags('Sites')
@Controller('api/v1/sites')
export class SitemapController {
  constructor(private readonly files: SitemapFileStore) {}

  @Get(':site/:file')
  @ApiOperation({
    summary:
      'The generated sitemap.xml of a site (public), or a sitemap-<n>.xml file its index names; ' +
      '404 before the first generation',
  })
  async serve(@Param('site') site: string, @Param('file') file: string, @Res() res: Response): Promise<void> {
    const content = await this.files.open(site, file);
    if (!content) throw new NotFoundException(`No ${file} for site "${site}"`);
    res.type('application/xml');
    await pipeline(content, res);
  }
}
