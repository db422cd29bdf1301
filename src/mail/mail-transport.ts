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

function smtpSender(smtp: SmtpSettings): SendMail {
  const transport =
    'url' in smtp
      ? createTransport(smtp.url)
      : createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
        });
  return async (message) => {
    await transport.sendMail(message);
  };
}

function outboxSender(outboxDir: string): SendMail {
  const transport = createTransport({ streamTransport: true, buffer: true });
  return async (message) => {
    const { message: raw } = (await transport.sendMail(message)) as { message: Buffer };
    await mkdir(outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    // written aside, then renamed: whoever reads the outbox sees whole messages only (a rename is atomic)
    const partial = join(outboxDir, `.${name}.partial`);
    await writeFile(partial, raw, { mode: 0o600 });
    await rename(partial, join(outboxDir, name));
  };
}
