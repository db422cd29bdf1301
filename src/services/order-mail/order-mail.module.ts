import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { MailModule } from '../../mail/mail.module';
import { OrdersModule } from '../orders/orders.module';
import { OrderMailListener } from './order-mail-listener';
import { OrderMailOutbox } from './order-mail-outbox';
import { OrderMailSender } from './order-mail-sender';
import { OrderMailTemplates } from './order-mail-templates';
import { OrderMail, OrderMailSchema } from './order-mail.schema';

/**
 * Transactional e-mail about orders (README beside this file): listens to the `order.*` domain events, keeps the
 * mails in its outbox (`order_mails`) and sends them through the mail module. Exports nothing.
 */
@Module({
  imports: [
    AccountsModule,
    MailModule,
    OrdersModule,
    MongooseModule.forFeature([{ name: OrderMail.name, schema: OrderMailSchema }]),
  ],
  providers: [OrderMailListener, OrderMailOutbox, OrderMailSender, OrderMailTemplates],
})
export class OrderMailModule {}
