import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AppConfig } from '../config/app-config';
import { EmbeddedDatabase } from './embedded-database';

@Module({ providers: [EmbeddedDatabase], exports: [EmbeddedDatabase] })
class EmbeddedDatabaseModule {}

/** The mongoose connection: MONGODB_URI when set, otherwise the embedded server. */
@Module({
  imports: [
    EmbeddedDatabaseModule,
    MongooseModule.forRootAsync({
      imports: [EmbeddedDatabaseModule],
      inject: [AppConfig, EmbeddedDatabase],
      useFactory: async (config: AppConfig, embedded: EmbeddedDatabase) => ({
        uri: config.mongodbUri ?? (await embedded.start()),
      }),
    }),
  ],
  exports: [EmbeddedDatabaseModule],
})
export class DatabaseModule {}
