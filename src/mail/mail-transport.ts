import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTransport, SendMailOptions } from 'nodemailer';
import { SmtpSettings } from '../config';

/** Sends one message; resolves when the SMTP server accepted it or the file is written. */
export type SendMail = (message: SendMailOptions) => Promise<void>;

/** Mail over SMTP when configured; otherwise (the development default) `.eml` files in `outboxDir`. */
export function createSendMail(smtp: SmtpSettings | undefined, outboxDir: string): SendMail {
  return smtp ? smtpSender(smtp) : outboxSender(outboxDir);
}

/**
 * nodemailer's defaults wait minutes for a silent server; bounded, an attempt ends well within the order mail
 * outbox's one-minute lease, after which another instance may try the same mail again.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function smtpSender(smtp: SmtpSettings): SendMail {
  const transport =
    'url' in smtp
      ? createTransport({ url: smtp.url, ...TIMEOUTS })
      : createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
          ...TIMEOUTS,
        });
  return async (message) => {
    await transport.sendMail(message);
  };
}

function outboxSender(outboxDir: string): SendMail {
  const transport = createTransport({ streamTransport: true, buffer: true });
  return async (message) => {
    const { message: raw } = (await transport.sendMail(message)) as { message: Buffer };
    // Written beside the outbox, then renamed into it (atomic on one file system): whoever reads the outbox never
    // sees half a message.
    const partialDir = `${outboxDir}.partial`;
    await Promise.all([mkdir(outboxDir, { recursive: true }), mkdir(partialDir, { recursive: true })]);
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    await writeFile(join(partialDir, name), raw, { mode: 0o600 });
    await rename(join(partialDir, name), join(outboxDir, name));
  };
}
