import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../auth/accounts.module';
import { Profile, ProfileSchema } from '../auth/profiles/profile.schema';
import { User, UserSchema } from '../auth/users/user.schema';
import { CatalogueModule } from '../services/catalogue/catalogue.module';
import { GeolocationModule } from '../services/geolocation/geolocation.module';
import { DemoSeeder } from './demo-seeder.service';

@Module({
  imports: [
    AccountsModule,
    CatalogueModule,
    GeolocationModule,
    MongooseModule.forFeature([
      { name: Profile.name, schema: ProfileSchema },
      { name: User.name, schema: UserSchema },
    ]),
  ],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class SeedModule {}
