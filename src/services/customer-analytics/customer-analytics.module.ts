import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { CustomerActivityRecorder } from './customer-activity-recorder';
import { CustomerActivity, CustomerActivitySchema } from './customer-activity.schema';
import { CustomerAnalyticsService } from './customer-analytics.service';

/**
 * The analytics bean and the {@link CustomerActivityRecorder} that other modules call from real actions. Accounts
 * and profiles are counted through the ports of their owners.
 */
@Module({
  imports: [
    AccountsModule,
    ProfilesModule,
    MongooseModule.forFeature([{ name: CustomerActivity.name, schema: CustomerActivitySchema }]),
  ],
  providers: [CustomerAnalyticsService, CustomerActivityRecorder],
  exports: [CustomerActivityRecorder],
})
export class CustomerAnalyticsModule {}
