import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailModule } from '../mail/mail.module';
import { AccountsModule } from './accounts.module';
import { AccountFlowsController } from './flows/account-flows.controller';
import { AccountFlows } from './flows/account-flows';
import { EmailFlowsEnabledGuard } from './flows/email-flows-enabled.guard';
import { FlowMails } from './flows/flow-mails';
import { OneTimeToken, OneTimeTokenSchema } from './flows/one-time-token.schema';
import { OneTimeTokens } from './flows/one-time-tokens';
import { AuthController } from './login/auth.controller';
import { CredentialCheck } from './login/credential-check';
import { TokenIssuer } from './login/token-issuer';
import { LoginLockout, LoginLockoutSchema } from './throttle/login-lockout.schema';
import { LoginThrottle } from './throttle/login-throttle';
import { AdminSeeder } from './users/admin-seeder';

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
    CredentialCheck,
    TokenIssuer,
    OneTimeTokens,
    FlowMails,
    AccountFlows,
    EmailFlowsEnabledGuard,
  ],
  exports: [OneTimeTokens, TokenIssuer],
})
export class AuthModule {}
