import { formatMoney } from '../../payments';
import { InvoiceDraft, InvoiceParty } from './invoice';

/** The invoice as HTML for the PDF service; every text from the data is escaped. */
export function invoiceHtml(draft: InvoiceDraft): string {
  const money = (amount: number) => escape(formatMoney(amount, draft.currency));
  const lines = draft.lines
    .map((line) => `<tr><td>${escape(line.description)}</td><td>${line.quantity}</td><td>${money(line.unitPrice)}</td><td>${money(line.amount)}</td></tr>`)
    .join('');
  const summary = draft.summary.map(({ label, amount }) => `<tr><td>${escape(label)}</td><td>${money(amount)}</td></tr>`).join('');
  return `<h1>${escape(draft.title)} ${escape(draft.number)}</h1>
<p>Order: ${escape(draft.orderId)}</p><p>Date: ${draft.issuedAt.toISOString().slice(0, 10)}</p><p>Currency: ${escape(draft.currency)}</p>
${party('From', draft.issuer)}${party('To', draft.recipient)}
<table><tr><th>Description</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr>${lines}</table>
<table>${summary}</table>`;
}

function party(role: string, { name, details }: InvoiceParty): string {
  return `<p>${role}: ${escape(name)}</p>${details.map((detail) => `<p>${escape(detail)}</p>`).join('')}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
