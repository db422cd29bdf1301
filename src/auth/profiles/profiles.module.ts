import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Profile, ProfileSchema } from './profile.schema';

/** The profiles collection (buyers, sellers, companies); other modules inject `Model<Profile>` through it. */
@Module({
  imports: [MongooseModule.forFeature([{ name: Profile.name, schema: ProfileSchema }])],
  exports: [MongooseModule],
})
export class ProfilesModule {}
