import { BadRequestException, UnauthorizedException } from '@nestjs/common';
import { AuditTrail } from '../../audit/audit-trail';
import { Bean, Exposed, MapOf } from '../../bean';
import { Principal, Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { AppConfig } from '../../config/app-config';
import { SellerDirectory } from '../catalogue/seller-directory';
import { actingSeller } from '../orders/seller-scope';
import { DocumentNumberingDto } from './document-numbering.dto';
import { ContactBook } from './contact-book';
import { Contact } from './contact.view';
import { DocumentNumbering, NumberPatterns } from './invoices';
import { Attachment } from './invoices/attachment';
import { OrderInvoices } from './order-invoices';

/** `accountingServiceImpl`: contacts and the marketplace's invoices to sellers. */
@Bean('accountingServiceImpl', Role.ADMIN)
export class AccountingService {
  constructor(
    private readonly config: AppConfig,
    private readonly contacts: ContactBook,
    private readonly invoices: OrderInvoices,
    private readonly numbering: DocumentNumbering,
    private readonly sellers: SellerDirectory,
    private readonly audit: AuditTrail,
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

  /**
   * Sets how the seller's next invoices and credit notes to buyers are numbered ({@link DocumentNumberingDto}): the
   * user acting for the seller, or an ADMIN naming it. The sequence of the year goes on; issued numbers stay.
   */
  @Exposed([MapOf(DocumentNumberingDto)], { role: Role.USER })
  async setDocumentNumbering(request: DocumentNumberingDto): Promise<NumberPatterns & { sellerId: string }> {
    const { invoicePattern, creditNotePattern } = request;
    if (invoicePattern === undefined && creditNotePattern === undefined) {
      throw new BadRequestException('Give invoicePattern, creditNotePattern or both');
    }
    const principal = caller();
    const sellerId = await actingSeller(this.sellers, principal, request.sellerId);
    const patterns = { ...(invoicePattern && { invoicePattern }), ...(creditNotePattern && { creditNotePattern }) };
    const numbering = await this.numbering.set(sellerId, patterns, principal.id);
    await this.audit.record({
      action: 'documentNumbering.update',
      target: { type: 'seller', id: sellerId },
      details: patterns,
    });
    return { sellerId, ...numbering };
  }

  @Exposed(['String'])
  retrieveContact(id: string): Promise<Contact> {
    return this.contacts.retrieve(id);
  }
}

/** The caller of a method that needs a role (the invoker has checked it already). */
function caller(): Principal {
  const principal = RequestContext.principal();
  if (!principal) throw new UnauthorizedException('Authentication required');
  return principal;
}
