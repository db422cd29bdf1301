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
  /** e.g. `PO-<orderId>`; also the file name. */
  number: string;
  title: string;
  orderId: string;
  issuer: InvoiceParty;
  recipient: InvoiceParty;
  currency: string;
  lines: InvoiceLine[];
  /** Shown under the lines; the last one is the amount due. */
  summary: InvoiceSummaryLine[];
  issuedAt: Date;
}
