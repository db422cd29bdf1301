import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config';
import { SendMail } from './mail-transport';

export const SEND_MAIL = Symbol('SEND_MAIL');

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

/** Sends plain-text mail (with attachments) to one recipient through the configured transport. */
@Injectable()
export class Mailer {
  private readonly logger = new Logger(Mailer.name);

  constructor(
    @Inject(SEND_MAIL) private readonly sendMail: SendMail,
    private readonly config: AppConfig,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    await this.sendMail({ from: this.config.mailFrom, ...mail });
    this.logger.log(`Mail "${mail.subject}" sent`);
  }
}
