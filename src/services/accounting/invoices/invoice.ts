/** What an invoice is for; stored with the PDF so an order's invoices can be found. */
export enum InvoiceKind {
  BUYER_TO_VENDOR = 'buyer-to-vendor',
  PAYOUT = 'payout',
  COMMISSION = 'commission',
}

export interface InvoiceParty {
  name: string;
  /** Address, e-mail, tax id: one line each. */
  details: string[];
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Integer minor units. */
  unitPrice: number;
  amount: number;
}

export interface InvoiceSummaryLine {
  label: string;
  /** Integer minor units; negative for deductions. */
  amount: number;
}

/** Everything an invoice PDF shows; amounts are integer minor units of `currency`. */
export interface InvoiceDraft {
  kind: InvoiceKind;
  /** The legal number `<prefix>-<year>-<sequence>` given when the invoice is issued; also the file name. */
  number: string;
  title: string;
  orderId: string;
  /** When the order was placed, if the invoice shows it. */
  orderedAt?: Date;
  issuer: InvoiceParty;
  recipient: InvoiceParty;
  /** Where the goods go, if the order is shipped. */
  shipTo?: InvoiceParty;
  currency: string;
  lines: InvoiceLine[];
  /** Shown under the lines; the last one is the amount due. */
  summary: InvoiceSummaryLine[];
  issuedAt: Date;
}

/** A draft before the invoice service numbers and dates it. */
export type UnnumberedDraft = Omit<InvoiceDraft, 'number' | 'issuedAt'>;

/** The numbering series an invoice belongs to: its issuer's, one per calendar year. */
export interface InvoiceSeries {
  /** e.g. `seller:<sellerId>`, `platform:commission`. */
  key: string;
  /** First part of the number: `<prefix>-<year>-<sequence>`. */
  prefix: string;
}

/** What to issue, in which series, and who may read it besides ADMINs. */
export interface InvoiceRequest {
  draft: UnnumberedDraft;
  series: InvoiceSeries;
  /**
   * `order`: one invoice of this kind per order, whatever changes later (the buyer-to-vendor invoice);
   * `content`: asking again with the same content answers the stored one, a changed order gets a new one.
   */
  onePer: 'order' | 'content';
  buyerUserId?: string;
  sellerUserId?: string;
}
