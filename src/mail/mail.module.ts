import { Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config';
import { createSendMail } from './mail-transport';
import { Mailer, SEND_MAIL } from './mailer';

/** Outgoing mail: SMTP when configured, otherwise `.eml` files in `DATA_DIR/outbox`. */
@Module({
  providers: [
    Mailer,
    {
      provide: SEND_MAIL,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => createSendMail(config.smtp, join(config.dataDir, 'outbox')),
    },
  ],
  exports: [Mailer],
})
export class MailModule {}
