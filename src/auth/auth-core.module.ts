import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { AccountsModule } from './accounts.module';
import { SessionAuthenticator, TokenRevocationCheck } from './auth-hooks';
import { AuthenticationGuard } from './authentication.guard';
import { AccountTokenCheck } from './revocation/account-token.check';
import { SessionCookieAuthenticator } from './sessions/session-cookie.authenticator';
import { TokenVerifier } from './token-verifier';

/**
 * Token verification and the global authentication guard. `JwtService` is exported configured for HS256 with the
 * secret as a KeyObject made once (a string secret is re-parsed as a possible public key on every verification).
 */
@Global()
@Module({
  imports: [
    AccountsModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: createSecretKey(Buffer.from(config.jwtSecret, 'utf8')),
        signOptions: { algorithm: 'HS256', expiresIn: config.jwtTtlSeconds },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  providers: [
    TokenVerifier,
    { provide: TokenRevocationCheck, useExisting: AccountTokenCheck },
    { provide: SessionAuthenticator, useExisting: SessionCookieAuthenticator },
    { provide: APP_GUARD, useClass: AuthenticationGuard },
  ],
  exports: [JwtModule, TokenVerifier],
})
export class AuthCoreModule {}
