import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { SellerApplication, SellerApplicationSchema } from './seller-application.schema';
import { SellerApplications } from './seller-applications';
import { SellerOnboardingService } from './seller-onboarding.service';
import { SellerOnboardingTopic } from './seller-onboarding.topic';

/**
 * `sellerOnboardingServiceImpl`: seller applications (owned here), the sellers and company profiles they become
 * (through the catalogue's `SellerDirectory` and identity's `ProfileDirectory`), live on `/topic/seller-applications`
 * and `/topic/seller-onboarding/{userId}`.
 */
@Module({
  imports: [
    CatalogueModule,
    ProfilesModule,
    MongooseModule.forFeature([{ name: SellerApplication.name, schema: SellerApplicationSchema }]),
  ],
  providers: [SellerOnboardingService, SellerApplications, SellerOnboardingTopic],
})
export class SellerOnboardingModule {}
