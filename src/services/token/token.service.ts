import { OneTimeTokenKind } from '../../auth/flows/one-time-token-kind';
import { OneTimeTokenRecord, OneTimeTokens } from '../../auth/flows/one-time-tokens';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';

/**
 * `tokenServiceImpl`: looks up live verification and password-reset tokens (unused, unexpired), optionally only
 * when they belong to `username`. Returns the token record, or null (the spec's empty Optional).
 */
@Bean('tokenServiceImpl', Role.ADMIN)
export class TokenService {
  constructor(private readonly tokens: OneTimeTokens) {}

  @Exposed(['String'])
  getVerificationToken(verificationToken: string): Promise<OneTimeTokenRecord | null> {
    return this.tokens.find(OneTimeTokenKind.VERIFICATION, verificationToken);
  }

  @Exposed(['String', 'String'], { name: 'getVerificationToken' })
  getVerificationTokenOfUser(verificationToken: string, username: string): Promise<OneTimeTokenRecord | null> {
    return this.tokens.find(OneTimeTokenKind.VERIFICATION, verificationToken, username);
  }

  @Exposed(['String'])
  getPasswordResetToken(passwordResetToken: string): Promise<OneTimeTokenRecord | null> {
    return this.tokens.find(OneTimeTokenKind.PASSWORD_RESET, passwordResetToken);
  }

  @Exposed(['String', 'String'], { name: 'getPasswordResetToken' })
  getPasswordResetTokenOfUser(passwordResetToken: string, username: string): Promise<OneTimeTokenRecord | null> {
    return this.tokens.find(OneTimeTokenKind.PASSWORD_RESET, passwordResetToken, username);
  }
}
