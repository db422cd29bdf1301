import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { Profile, ProfileSchema } from '../../auth/profiles/profile.schema';
import { User, UserSchema } from '../../auth/users/user.schema';
import { CustomerActivityRecorder } from './customer-activity-recorder';
import { CustomerActivity, CustomerActivitySchema } from './customer-activity.schema';
import { CustomerAnalyticsService } from './customer-analytics.service';

/** The analytics bean and the {@link CustomerActivityRecorder} that other modules call from real actions. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: CustomerActivity.name, schema: CustomerActivitySchema },
      { name: User.name, schema: UserSchema },
      { name: Profile.name, schema: ProfileSchema },
    ]),
  ],
  providers: [CustomerAnalyticsService, CustomerActivityRecorder],
  exports: [CustomerActivityRecorder],
})
export class CustomerAnalyticsModule {}
