import { formatMoney } from '../../payments';
import { InvoiceDraft, InvoiceKind, InvoiceParty } from './invoice';
import { escapeHtml } from '../../../common/html-escape';

/** The invoice as HTML for the PDF service; every text from the data is escaped. */
export function invoiceHtml(draft: InvoiceDraft): string {
  const money = (amount: number) => escapeHtml(formatMoney(amount, draft.currency));
  const lines = draft.lines
    .map((line) =>
      row([escapeHtml(line.description), String(line.quantity), money(line.unitPrice), money(line.amount)]),
    )
    .join('');
  const summary = draft.summary.map(({ label, amount }) => row([escapeHtml(label), money(amount)])).join('');
  const ordered = draft.orderedAt ? `<p>Order date: ${day(draft.orderedAt)}</p>` : '';
  const shipTo = draft.shipTo ? party('Ship to', draft.shipTo) : '';
  const numberLabel = draft.kind === InvoiceKind.CREDIT_NOTE ? 'Credit note number' : 'Invoice number';
  const corrects = draft.corrects ? `<p>Corrects invoice: ${escapeHtml(draft.corrects)}</p>` : '';
  return `<h1>${escapeHtml(draft.title)} ${escapeHtml(draft.number)}</h1>
<p>${numberLabel}: ${escapeHtml(draft.number)}</p><p>Date of issue: ${day(draft.issuedAt)}</p>${corrects}
<p>Order: ${escapeHtml(draft.orderId)}</p>${ordered}
<p>Currency: ${escapeHtml(draft.currency)}</p>
${party('From', draft.issuer)}${party('To', draft.recipient)}${shipTo}
<table><tr><th>Description</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr>${lines}</table>
<table>${summary}</table>`;
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function row(cells: string[]): string {
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

function party(role: string, { name, details }: InvoiceParty): string {
  return `<p>${role}: ${escapeHtml(name)}</p>${details.map((detail) => `<p>${escapeHtml(detail)}</p>`).join('')}`;
}
