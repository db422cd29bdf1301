import { Injectable, Logger } from '@nestjs/common';
import { MailService } from '../../mail/mail.service';

/** The messages of the e-mail flows. Each carries the single-use token the next step needs. */
@Injectable()
export class FlowMailsService {
  private readonly logger = new Logger(FlowMailsService.name);

  constructor(private readonly mail: MailService) {}

  sendVerification(to: string, username: string, token: string): Promise<void> {
    return this.mail.send({
      to,
      subject: 'Confirm your e-mail address',
      text: `Hello ${username},\n\nconfirm your address with this token (valid for 24 hours):\n\ntoken: ${token}\n`,
    });
  }

  /**
   * Sent without making the request wait, so a reset answers in the same time whether or not the address is
   * registered; a failure is only logged.
   */
  sendPasswordResetInBackground(to: string, username: string, token: string): void {
    this.mail
      .send({
        to,
        subject: 'Reset your password',
        text: `Hello ${username},\n\nset a new password with this token (valid for 1 hour):\n\ntoken: ${token}\n\nIf you did not ask for it, ignore this message.\n`,
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Password reset mail failed'));
  }
}
