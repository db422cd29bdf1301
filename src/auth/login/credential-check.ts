import { Injectable } from '@nestjs/common';
import { Role } from '../../common/principal';
import { AppConfig } from '../../config';
import { DomainEvents } from '../../events/domain-events';
import { PasswordHasher } from '../passwords/password-hasher';
import { LoginThrottle } from '../throttle/login-throttle';
import { UserDocument } from '../users/user.schema';
import { UserAccounts } from '../users/user-accounts';
import { codedError } from '../../common/errors/coded-exception';

/** Checks a username and password, with rate limiting and lockout. */
@Injectable()
export class CredentialCheck {
  constructor(
    private readonly users: UserAccounts,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly config: AppConfig,
    private readonly events: DomainEvents,
  ) {}

  /**
   * The user whose credentials these are. Unknown users, wrong passwords and disabled accounts get the same
   * answer after the same amount of hashing work.
   * @param client the caller's address, for per-client rate limiting
   * @throws UnauthorizedException INVALID_CREDENTIALS on bad credentials, HttpException 429 when throttled
   */
  async check(client: string, username: string, password: string): Promise<UserDocument> {
    await this.throttle.registerAttempt(client, username);
    const user = await this.users.findByUsername(username);
    const matches = user
      ? await this.hasher.verify(user.passwordHash, password)
      : await this.hasher.verifyDummy(password);
    if (!user || !matches || user.disabled) {
      await this.throttle.recordFailure(client, username);
      throw codedError('INVALID_CREDENTIALS', 'Bad credentials');
    }
    await this.throttle.recordSuccess(client, username);
    if (this.config.authEmailFlows && !user.verified)
      throw codedError('EMAIL_NOT_VERIFIED', 'E-mail address not verified');
    if (user.role === Role.USER) await this.events.emit('customer.logged-in', { customerId: user.id });
    return user;
  }
}
