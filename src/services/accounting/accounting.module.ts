import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AccountsModule } from '../../auth/accounts.module';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { CatalogueModule } from '../catalogue/catalogue.module';
import { OrdersModule } from '../orders/orders.module';
import { AccountingManagerService } from './accounting-manager.service';
import { AccountingService } from './accounting.service';
import { ContactBook } from './contact-book';
import { AccountingContact, AccountingContactSchema } from './contact.schema';
import { InvoicesModule } from './invoices/invoices.module';
import { InvoicesController } from './invoices.controller';
import { OrderInvoices } from './order-invoices';

/**
 * `accountingServiceImpl` and `accountingManagerServiceImpl`: contacts, payout and commission invoices, and the
 * invoice downloads (`/api/v1/invoices`). The buyer's invoice is issued on payment by the orders module
 * (`BuyerInvoice.issueOnPayment`) through this module's invoice issuer.
 */
@Module({
  imports: [
    AccountsModule,
    ProfilesModule,
    OrdersModule,
    InvoicesModule,
    CatalogueModule,
    MongooseModule.forFeature([{ name: AccountingContact.name, schema: AccountingContactSchema }]),
  ],
  controllers: [InvoicesController],
  providers: [AccountingService, AccountingManagerService, ContactBook, OrderInvoices],
})
export class AccountingModule {}
