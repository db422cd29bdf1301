import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { PaymentsModule } from '../payments';
import { CardConnectService } from './card-connect.service';
import { ConnectAccountStore } from './connect-account-store';
import { ConnectAccount, ConnectAccountSchema } from './connect-account.schema';
import { ConnectOwners } from './connect-owner';
import { InitialPerson } from './initial-person';
import { OnboardingLinks } from './onboarding-links';
import { OnboardingController } from './sandbox/onboarding.controller';

/** `cardConnectServiceMock`: sellers' connect accounts with the card provider's sandbox, and its onboarding page. */
@Module({
  imports: [
    AccountsModule,
    ProfilesModule,
    CatalogueModule,
    PaymentsModule,
    MongooseModule.forFeature([{ name: ConnectAccount.name, schema: ConnectAccountSchema }]),
  ],
  controllers: [OnboardingController],
  providers: [CardConnectService, ConnectAccountStore, ConnectOwners, InitialPerson, OnboardingLinks],
})
export class ConnectAccountsModule {}
