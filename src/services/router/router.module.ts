import { Module } from '@nestjs/common';
import { ContentStoreModule } from '../content/content-store.module';
import { RouterService } from './router.service';

@Module({ imports: [ContentStoreModule], providers: [RouterService], exports: [RouterService] })
export class SpaRouterModule {}
