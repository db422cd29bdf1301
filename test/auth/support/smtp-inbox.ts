import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port that keeps every message it receives. */
export class SmtpInbox {
  readonly messages: ReceivedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        this.messages.push({ to, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Waits for a message to `address`, takes it from the inbox and returns its raw text. */
  async mailTo(address: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.messages.find((message) => message.to.includes(address));
      if (mail) {
        this.messages.splice(this.messages.indexOf(mail), 1);
        return mail.raw;
      }
      if (Date.now() > deadline) throw new Error(`No mail reached ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Waits for a message to `address` whose text contains a token, and returns that token. */
  async tokenSentTo(address: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.messages.find((message) => message.to.includes(address));
      const token = mail && /token: ([A-Za-z0-9_-]+)/.exec(mail.raw)?.[1];
      if (token) {
        this.messages.splice(this.messages.indexOf(mail), 1);
        return token;
      }
      if (Date.now() > deadline) throw new Error(`No mail with a token reached ${address}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
