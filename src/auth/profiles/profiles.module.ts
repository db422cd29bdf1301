import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProfileDirectory } from './profile-directory';
import { Profile, ProfileSchema } from './profile.schema';

/** The profiles collection (buyers, sellers, companies), owned here; other modules read it through its port. */
@Module({
  imports: [MongooseModule.forFeature([{ name: Profile.name, schema: ProfileSchema }])],
  providers: [ProfileDirectory],
  exports: [ProfileDirectory],
})
export class ProfilesModule {}
