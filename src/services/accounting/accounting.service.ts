import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { AppConfig } from '../../config/app-config';
import { ContactBook } from './contact-book';
import { Contact } from './contact.view';
import { Attachment } from './invoices/attachment';
import { OrderInvoices } from './order-invoices';

/** `accountingServiceImpl`: contacts and the marketplace's invoices to sellers. */
@Bean('accountingServiceImpl', Role.ADMIN)
export class AccountingService {
  constructor(
    private readonly config: AppConfig,
    private readonly contacts: ContactBook,
    private readonly invoices: OrderInvoices,
  ) {}

  /** Prepares the ledger: the contact indexes exist before the first contact is written. */
  @Exposed()
  async init(): Promise<void> {
    await this.contacts.model.createIndexes();
  }

  @Exposed()
  isAccountingKeyDefined(): boolean {
    return Boolean(this.config.accountingApiKey);
  }

  @Exposed(['String', 'String'])
  createPayoutInvoice(orderId: string, profileId: string): Promise<Attachment> {
    return this.invoices.payout(orderId, profileId);
  }

  @Exposed(['String', 'String'])
  createCommissionInvoice(orderId: string, profileId: string): Promise<Attachment> {
    return this.invoices.commission(orderId, profileId);
  }

  @Exposed(['String'])
  retrieveContact(id: string): Promise<Contact> {
    return this.contacts.retrieve(id);
  }
}
