import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { PasswordHasher } from './passwords/password-hasher.service';
import { AccountTokenCheck } from './revocation/account-token.check';
import { RevocationService } from './revocation/revocation.service';
import { RevokedToken, RevokedTokenSchema } from './revocation/revoked-token.schema';
import { SessionCookieAuthenticator } from './sessions/session-cookie.authenticator';
import { Session, SessionSchema } from './sessions/session.schema';
import { SessionsService } from './sessions/sessions.service';
import { CustomersReport } from './users/customers-report';
import { User, UserSchema } from './users/user.schema';
import { UsersService } from './users/users.service';

/** What other modules may use of accounts; the customers report registers itself and is not exported. */
const ACCOUNT_SERVICES = [
  PasswordHasher,
  UsersService,
  SessionsService,
  RevocationService,
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
