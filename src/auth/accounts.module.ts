import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { PasswordHasher } from './passwords/password-hasher';
import { AccountTokenCheck } from './revocation/account-token.check';
import { TokenRevocations } from './revocation/token-revocations';
import { RevokedToken, RevokedTokenSchema } from './revocation/revoked-token.schema';
import { SessionCookieAuthenticator } from './sessions/session-cookie.authenticator';
import { Session, SessionSchema } from './sessions/session.schema';
import { SessionStore } from './sessions/session-store';
import { CustomersReport } from './users/customers-report';
import { User, UserSchema } from './users/user.schema';
import { UserAccounts } from './users/user-accounts';

/** What other modules may use of accounts; the customers report registers itself and is not exported. */
const ACCOUNT_SERVICES = [
  PasswordHasher,
  UserAccounts,
  SessionStore,
  TokenRevocations,
  AccountTokenCheck,
  SessionCookieAuthenticator,
];

/**
 * Accounts (and their `customers` report), sessions and revoked tokens, and the two checks `AuthCoreModule` binds
 * into token verification and the authentication guard. Kept apart from the login endpoints so that the core auth
 * module can import it without a cycle.
 */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: User.name, schema: UserSchema },
      { name: Session.name, schema: SessionSchema },
      { name: RevokedToken.name, schema: RevokedTokenSchema },
    ]),
  ],
  providers: [...ACCOUNT_SERVICES, CustomersReport],
  exports: ACCOUNT_SERVICES,
})
export class AccountsModule {}
