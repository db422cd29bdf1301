import { Injectable } from '@nestjs/common';
import { Mailer } from '../../mail/mailer';
import { OneTimeTokenKind } from './one-time-token.schema';
import { ONE_TIME_TOKEN_LIFETIME_MS } from './one-time-tokens';

function validity(kind: OneTimeTokenKind): string {
  const hours = ONE_TIME_TOKEN_LIFETIME_MS[kind] / 3_600_000;
  return `valid for ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** The messages of the e-mail flows. Each carries the single-use token the next step needs. */
@Injectable()
export class FlowMails {
  constructor(private readonly mail: Mailer) {}

  sendVerification(to: string, username: string, token: string): Promise<void> {
    return this.mail.send({
      to,
      subject: 'Confirm your e-mail address',
      text: `Hello ${username},\n\nconfirm your address with this token (${validity(OneTimeTokenKind.VERIFICATION)}):\n\ntoken: ${token}\n`,
    });
  }

  /** To the owner of a username or address someone tried to register again; it carries no token. */
  sendRegistrationNotice(to: string, username: string): Promise<void> {
    return this.mail.send({
      to,
      subject: 'Someone tried to register with your account details',
      text:
        `Hello ${username},\n\nsomeone tried to register a new account with your username or e-mail address; ` +
        'no account was created. If it was you, log in, or reset your password if you forgot it. Otherwise you ' +
        'can ignore this message.\n',
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
