import { BadRequestException, CallHandler, ExecutionContext, Injectable } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { Observable } from 'rxjs';

/** busboy's refusals of a request's Content-Type, which Nest's multer mapping leaves as they are (a 500). */
const MALFORMED_CONTENT_TYPE = /^(Malformed content type|Unsupported content type: |Missing Content-Type)/;

/** multer's interceptor for the one `file` field, answering a malformed multipart Content-Type with a 400. */
@Injectable()
export class AssetUploadInterceptor extends FileInterceptor('file') {
  override async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    try {
      return await super.intercept(context, next);
    } catch (error) {
      if (!(error instanceof Error) || !MALFORMED_CONTENT_TYPE.test(error.message)) throw error;
      throw new BadRequestException(`Multipart: ${error.message}`);
    }
  }
}
