/** What other modules (orders) use to issue invoices. */
export { InvoicesModule } from './invoices.module';
export { InvoiceIssuer, INVOICES_BUCKET } from './invoice-issuer';
export { InvoiceKind } from './invoice';
export { DocumentNumbering } from './document-numbering';
export type { NumberPatterns } from './document-numbering';
export { numberPatternProblem, MAX_NUMBER_PATTERN_LENGTH } from './number-pattern';
export type {
  InvoiceDraft,
  InvoiceLine,
  InvoiceParty,
  InvoiceRequest,
  InvoiceSeries,
  InvoiceSummaryLine,
  UnnumberedDraft,
} from './invoice';
export type { Attachment } from './attachment';
