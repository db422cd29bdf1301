import { ConflictException, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { Principal } from '../../common/principal';
import { CredentialCheck } from '../login/credential-check';
import { SessionStore } from '../sessions/session-store';
import { UserDocument } from '../users/user.schema';
import { UserAccounts } from '../users/user-accounts';
import { FlowMails } from './flow-mails';
import { ChangePasswordDto, RegisterDto, ResetPasswordDto, SavePasswordDto } from './flows.dto';
import { OneTimeTokenKind } from './one-time-token.schema';
import { OneTimeTokens } from './one-time-tokens';
import { codedError } from '../../common/errors/coded-exception';

/** Register, verify, reset, save and change password. */
@Injectable()
export class AccountFlows {
  private readonly logger = new Logger(AccountFlows.name);

  constructor(
    private readonly users: UserAccounts,
    private readonly tokens: OneTimeTokens,
    private readonly mails: FlowMails,
    private readonly credentials: CredentialCheck,
    private readonly sessions: SessionStore,
  ) {}

  /**
   * Creates an unverified USER and mails the verification token. The answer does not tell whether the username or
   * address was taken: it is the same, after the same work (the password is hashed either way, see
   * `UserAccounts.create`) and before any mail goes out; the owners of a taken username or address are told by mail
   * instead. A mail failure is only logged.
   */
  async register(dto: RegisterDto): Promise<{ username: string; verified: false }> {
    try {
      const user = await this.users.create({ username: dto.username, email: dto.email, password: dto.password });
      this.inBackground(this.mailVerification(user), 'Verification mail failed');
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      this.inBackground(this.noticeOwners(dto), 'Registration notice failed');
    }
    return { username: dto.username.toLowerCase(), verified: false };
  }

  async verify(token: string): Promise<{ verified: true }> {
    const userId = await this.consume(OneTimeTokenKind.VERIFICATION, token);
    await this.users.markVerified(userId);
    return { verified: true };
  }

  /**
   * Always the same answer, in the same time: the token is issued and mailed after answering, so neither the body
   * nor the timing tells whether the address is registered. A failure is only logged.
   */
  async resetPassword(dto: ResetPasswordDto): Promise<{ message: string }> {
    const user = await this.users.findByEmail(dto.email);
    if (user && !user.disabled) this.inBackground(this.mailResetToken(user), 'Password reset mail failed');
    return { message: 'If the address is registered, a message with a reset token has been sent' };
  }

  /** Sets the password from a reset token; the mailed token also proves the address, and old logins end. */
  async savePassword(dto: SavePasswordDto): Promise<{ passwordChanged: true }> {
    const userId = await this.consume(OneTimeTokenKind.PASSWORD_RESET, dto.token);
    await this.users.setPassword(userId, dto.password);
    await this.users.markVerified(userId);
    await this.sessions.destroyAllOf(userId);
    return { passwordChanged: true };
  }

  /** Checks the old password like a login (throttled), then ends every session and token of the user. */
  async changePassword(
    principal: Principal | null,
    client: string,
    dto: ChangePasswordDto,
  ): Promise<{ passwordChanged: true }> {
    if (!principal) throw new UnauthorizedException('Authentication required');
    const user = await this.credentials.check(client, principal.username, dto.oldPassword);
    await this.users.setPassword(user.id, dto.newPassword);
    await this.sessions.destroyAllOf(user.id);
    return { passwordChanged: true };
  }

  private async mailVerification(user: UserDocument): Promise<void> {
    const token = await this.tokens.issue(OneTimeTokenKind.VERIFICATION, user);
    await this.mails.sendVerification(user.email, user.username, token);
  }

  /** Tells the accounts holding the username or the address of a refused registration (one or two accounts). */
  private async noticeOwners(dto: RegisterDto): Promise<void> {
    const owners = [await this.users.findByUsername(dto.username), await this.users.findByEmail(dto.email)];
    const byId = new Map(owners.filter((owner) => owner !== null).map((owner) => [String(owner._id), owner]));
    for (const owner of byId.values()) await this.mails.sendRegistrationNotice(owner.email, owner.username);
  }

  private inBackground(work: Promise<void>, failure: string): void {
    work.catch((error: unknown) => this.logger.error({ err: error }, failure));
  }

  private async mailResetToken(user: UserDocument): Promise<void> {
    const token = await this.tokens.issue(OneTimeTokenKind.PASSWORD_RESET, user);
    await this.mails.sendPasswordReset(user.email, user.username, token);
  }

  private async consume(kind: OneTimeTokenKind, token: string): Promise<string> {
    const userId = await this.tokens.consume(kind, token);
    if (!userId) throw codedError('ONE_TIME_TOKEN_INVALID', 'Invalid, expired or already used token');
    return userId;
  }
}
