import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { CatalogueRevision, CatalogueRevisionSchema } from './catalogue-revision.schema';
import { CatalogueRevisionService } from './catalogue-revision.service';

/** The catalogue revision alone, for modules that write catalogue collections by name (raw driver calls). */
@Module({
  imports: [MongooseModule.forFeature([{ name: CatalogueRevision.name, schema: CatalogueRevisionSchema }])],
  providers: [CatalogueRevisionService],
  exports: [CatalogueRevisionService],
})
export class CatalogueRevisionModule {}
