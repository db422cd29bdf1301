/** What an invoice is for; stored with the PDF so an order's invoices can be found. */
export enum InvoiceKind {
  BUYER_TO_VENDOR = 'buyer-to-vendor',
  /** A seller's credit note to the buyer for a refund: it corrects the buyer-to-vendor invoice. */
  CREDIT_NOTE = 'credit-note',
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
  /** The legal number (its series' pattern of year and sequence) given when the invoice is issued; the file name. */
  number: string;
  title: string;
  orderId: string;
  /** When the order was placed, if the invoice shows it. */
  orderedAt?: Date;
  /** The number of the invoice a credit note corrects. */
  corrects?: string;
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

/** A draft before the invoice issuer numbers and dates it. */
export type UnnumberedDraft = Omit<InvoiceDraft, 'number' | 'issuedAt'>;

/** The numbering series an invoice belongs to: its issuer's, one per calendar year. */
export interface InvoiceSeries {
  /** e.g. `seller:<sellerId>`, `platform:commission`. */
  key: string;
  /** How numbers read: `{YYYY}` and `{SEQ}` / `{SEQ:n}` in literal text (`number-pattern.ts`), e.g. `CM-{YYYY}-{SEQ:6}`. */
  pattern: string;
}

/** What to issue, in which series, and who may read it besides ADMINs. */
export interface InvoiceRequest {
  draft: UnnumberedDraft;
  series: InvoiceSeries;
  /**
   * `order`: one invoice of this kind per order, whatever changes later (the buyer-to-vendor invoice);
   * `content`: asking again with the same content answers the stored one, a changed order gets a new one;
   * `{refund}`: one per refund of the order (credit notes), by the refund's reference.
   */
  onePer: 'order' | 'content' | { refund: string };
  buyerUserId?: string;
  sellerUserId?: string;
}
