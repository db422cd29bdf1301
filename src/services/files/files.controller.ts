/// <reference types="multer" />
import {
  BadRequestException,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Req,
  Res,
  UnsupportedMediaTypeException,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Roles } from '../../auth/roles.decorator';
import { codedError } from '../../common/errors/coded-exception';
import { toObjectId } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { KnownSites } from '../../sites/known-sites';
import { BinaryRange, BinaryStore, StoredBinary } from '../binaries/binary-store';
import { AssetUploadInterceptor } from './asset-upload.interceptor';
import { AssetView, contentDisposition, toAssetView } from './asset.view';
import { sanitizeFileName } from './file-name';
import { streamDownload } from './stream-download';
import { detectFileType } from './file-type';

/** Types a browser may show in place; everything else is downloaded. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|application\/pdf|video\/mp4)$/;

/**
 * Site assets in the `assets` GridFS bucket. Uploading, listing and removing need ADMIN and act on the
 * `Site-Context` site; downloads are public, as pages embed them.
 */
@ApiTags('Files')
@Controller('api/v1')
export class FilesController {
  constructor(
    private readonly binaries: BinaryStore,
    private readonly sites: KnownSites,
  ) {}

  /** `multipart/form-data` with one `file` field; the type is decided from the content, not the name or header. */
  @Roles(Role.ADMIN)
  @Post('files')
  @HttpCode(201)
  @UseInterceptors(AssetUploadInterceptor)
  @ApiBearerAuth('bearer')
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } },
  })
  @ApiOperation({
    summary:
      'Uploads an asset of the Site-Context site: 201 with the asset; 413 too large, 415 type not allowed or not matching its name',
  })
  async upload(@UploadedFile() file: Express.Multer.File | undefined): Promise<AssetView> {
    if (!file) throw new BadRequestException('A multipart field "file" is required');
    const filename = sanitizeFileName(file.originalname);
    const contentType = detectFileType(file.buffer, filename);
    if (!contentType)
      throw new UnsupportedMediaTypeException(
        `"${filename}" is not an allowed file type, or its content does not match its name`,
      );
    const site = await this.site();
    const uploadedBy = RequestContext.principal()?.username;
    return toAssetView(await this.binaries.save(file.buffer, filename, { site, contentType, uploadedBy }));
  }

  @Roles(Role.ADMIN)
  @Get('assets')
  @ApiBearerAuth('bearer')
  @ApiOperation({ summary: 'The assets of the Site-Context site, newest first' })
  async list(): Promise<AssetView[]> {
    return (await this.binaries.list({ 'metadata.site': await this.site() })).map(toAssetView);
  }

  @Roles(Role.ADMIN)
  @Delete('files/:id')
  @HttpCode(204)
  @ApiBearerAuth('bearer')
  @ApiOperation({ summary: 'Removes an asset of the Site-Context site; 404 for an unknown one or one of another site' })
  async remove(@Param('id') id: string): Promise<void> {
    const file = await this.binaries.get(toObjectId(id, 'id'), undefined, { 'metadata.site': await this.site() });
    await this.binaries.remove(file._id);
  }

  /** Streams the bytes; answers conditional requests (ETag) and single byte ranges (206, 416). */
  @Get('files/:id')
  @ApiOperation({ summary: 'Downloads an asset (public): ETag and If-None-Match (304), one byte Range (206, 416)' })
  async download(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const file = await this.binaries.get(toObjectId(id, 'id'));
    const view = toAssetView(file);
    const etag = `"${view.id}-${file.length}"`;
    res.set({
      ETag: etag,
      'Accept-Ranges': 'bytes',
      'Last-Modified': file.uploadDate.toUTCString(),
      'Cache-Control': 'public, max-age=0, must-revalidate',
    });
    // Express compares If-None-Match (lists, weak tags) and If-Modified-Since against the headers just set
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const range = requestedRange(req, file);
    if (range === 'unsatisfiable') {
      res.set('Content-Range', `bytes */${file.length}`);
      throw codedError('RANGE_NOT_SATISFIABLE', `The range lies outside the ${file.length} bytes of the file`);
    }
    const type = /^text\/|json$/.test(view.contentType) ? `${view.contentType}; charset=utf-8` : view.contentType;
    res.set({
      'Content-Type': type,
      'Content-Disposition': contentDisposition(view.filename, INLINE.test(view.contentType)),
    });
    if (range) res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${file.length}`);
    res.set('Content-Length', String(range ? range.end - range.start + 1 : file.length));
    await streamDownload(this.binaries.open(file._id, range), res, `file ${view.id}`);
  }

  private async site(): Promise<string> {
    const site = RequestContext.current().site;
    if (!(await this.sites.exists(site))) throw new BadRequestException(`Unknown site "${site}"`);
    return site;
  }
}

/** One byte range of a `Range` header; several ranges are answered with the whole file. */
function requestedRange(req: Request, file: StoredBinary): BinaryRange | 'unsatisfiable' | undefined {
  if (file.length === 0) return undefined;
  const ranges = req.range(file.length, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === undefined || ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end };
}
