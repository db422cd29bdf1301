import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { AppConfig } from '../../config';
import { BinariesModule } from '../binaries/binaries.module';
import { FilesController } from './files.controller';

/**
 * Uploads are held in memory (multer's default without a destination), at most UPLOAD_MAX_BYTES each, so their
 * leading bytes can be checked before anything is stored; a larger file is a 413 from multer's own limit.
 */
@Module({
  imports: [
    BinariesModule,
    MulterModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 10, parts: 12 },
      }),
    }),
  ],
  controllers: [FilesController],
})
export class FilesModule {}
