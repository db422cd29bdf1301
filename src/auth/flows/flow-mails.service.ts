import { Injectable } from '@nestjs/common';
import { MailService } from '../../mail/mail.service';
import { OneTimeTokenKind } from './one-time-token.schema';
import { ONE_TIME_TOKEN_LIFETIME_MS } from './one-time-tokens.service';

function validity(kind: OneTimeTokenKind): string {
  const hours = ONE_TIME_TOKEN_LIFETIME_MS[kind] / 3_600_000;
  return `valid for ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** The messages of the e-mail flows. Each carries the single-use token the next step needs. */
@Injectable()
export class FlowMailsService {
  constructor(private readonly mail: MailService) {}

  sendVerification(to: string, username: string, token: string): Promise<void> {
    return this.mail.send({
      to,
      subject: 'Confirm your e-mail address',
      text: `Hello ${username},\n\nconfirm your address with this token (${validity(OneTimeTokenKind.VERIFICATION)}):\n\ntoken: ${token}\n`,
    });
  }

  sendPasswordReset(to: string, username: string, token: string): Promise<void> {
    return this.mail.send({
      to,
      subject: 'Reset your password',
      text: `Hello ${username},\n\nset a new password with this token (${validity(OneTimeTokenKind.PASSWORD_RESET)}):\n\ntoken: ${token}\n\nIf you did not ask for it, ignore this message.\n`,
    });
  }
}
