import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailModule } from '../mail/mail.module';
import { AccountsModule } from './accounts.module';
import { AccountFlowsController } from './flows/account-flows.controller';
import { AccountFlowsService } from './flows/account-flows.service';
import { EmailFlowsEnabledGuard } from './flows/email-flows-enabled.guard';
import { FlowMailsService } from './flows/flow-mails.service';
import { OneTimeToken, OneTimeTokenSchema } from './flows/one-time-token.schema';
import { OneTimeTokensService } from './flows/one-time-tokens.service';
import { AuthController } from './login/auth.controller';
import { CredentialsService } from './login/credentials.service';
import { TokenIssuer } from './login/token-issuer.service';
import { LoginLockout, LoginLockoutSchema } from './throttle/login-lockout.schema';
import { LoginThrottle } from './throttle/login-throttle.service';
import { AdminSeeder } from './users/admin-seeder.service';

/** The identity endpoints: tokens, sessions, logout, the e-mail flows, and the admin created at first start. */
@Module({
  imports: [
    AccountsModule,
    MailModule,
    MongooseModule.forFeature([
      { name: OneTimeToken.name, schema: OneTimeTokenSchema },
      { name: LoginLockout.name, schema: LoginLockoutSchema },
    ]),
  ],
  controllers: [AuthController, AccountFlowsController],
  providers: [
    AdminSeeder,
    LoginThrottle,
    CredentialsService,
    TokenIssuer,
    OneTimeTokensService,
    FlowMailsService,
    AccountFlowsService,
    EmailFlowsEnabledGuard,
  ],
  exports: [OneTimeTokensService, TokenIssuer],
})
export class AuthModule {}
