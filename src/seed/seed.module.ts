import { Module } from '@nestjs/common';
import { AccountsModule } from '../auth/accounts.module';
import { ProfilesModule } from '../auth/profiles/profiles.module';
import { CatalogueModule } from '../services/catalogue/catalogue.module';
import { GeolocationModule } from '../services/geolocation/geolocation.module';
import { DemoSeeder } from './demo-seeder';

/** The demo marketplace, loaded through the import ports of the modules that own the data. */
@Module({
  imports: [AccountsModule, ProfilesModule, CatalogueModule, GeolocationModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
