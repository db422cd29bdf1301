import { getModelToken } from '@nestjs/mongoose';
import { ParsedMail, simpleParser } from 'mailparser';
import { Model } from 'mongoose';
import { OrderMail, OrderMailState } from '../../../src/services/order-mail/order-mail.schema';
import { SmtpInbox } from '../../auth/support/smtp-inbox';
import { TestApp } from '../../support/test-app';

/** The next mail the SMTP server received for `address`, parsed (subject, text, attachments). */
export async function nextMailTo(inbox: SmtpInbox, address: string): Promise<ParsedMail> {
  return simpleParser(await inbox.mailTo(address, 30_000));
}

/** Reads the outbox rows of an order (the test only reads them). */
export function outboxOf(t: TestApp): Model<OrderMail> {
  return t.app.get<Model<OrderMail>>(getModelToken(OrderMail.name));
}

/** Polls `read` until `done` holds (at most 30 s); what it read last. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until every mail of the order left the outbox (sent or abandoned); the rows. */
export async function settledMailsOf(t: TestApp, orderId: string): Promise<OrderMail[]> {
  return eventually(
    () => outboxOf(t).find({ orderId }).lean<OrderMail[]>().exec(),
    (rows) => rows.length > 0 && rows.every((row) => row.state !== OrderMailState.PENDING),
  );
}
