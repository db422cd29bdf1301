import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** API documents served by controllers; see also `setupApiDocs`. */
@Module({ controllers: [DocsController] })
export class DocsModule {}
