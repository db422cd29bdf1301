import { join, resolve } from 'node:path';
import { InvoiceDraft, InvoiceKind } from '../../src/services/accounting/invoices/invoice';
import { invoiceHtml } from '../../src/services/accounting/invoices/invoice-html';
import type { renderPdf as RenderPdf } from '../../src/services/pdf/html-to-pdf';

/**
 * One measurement for `bench/pdf/run.ts`: `node test/support/run-ts.js bench/pdf/render.ts <root> <renders>` renders
 * this build's invoice HTML `renders` times with the `renderPdf` of the build at `<root>`, in a fresh process, and
 * prints `{rssBeforeMb, rssAfterFirstMb, rssAfterMb, firstMs, medianMs}` as one JSON line.
 */
const [root, renders] = [resolve(process.argv[2]), Number(process.argv[3])];

/** A buyer's invoice of twelve lines, as the invoice issuer drafts it. */
const DRAFT: InvoiceDraft = {
  kind: InvoiceKind.BUYER_TO_VENDOR,
  number: 'INV-2026-000042',
  title: 'Invoice',
  orderId: 'ord_5f2c9a',
  orderedAt: new Date('2026-11-20T10:00:00Z'),
  issuer: { name: 'Green Leaf B.V.', details: ['Kanaalstraat 12', '1054 XK Amsterdam', 'VAT NL123456789B01'] },
  recipient: { name: 'Alice Martin', details: ['12 rue des Lilas', '75011 Paris', 'alice@example.com'] },
  currency: 'EUR',
  lines: Array.from({ length: 12 }, (_, i) => ({
    description: `Monstera deliciosa & pot, size ${i + 1}`,
    quantity: (i % 3) + 1,
    unitPrice: 1990 + i * 100,
    amount: ((i % 3) + 1) * (1990 + i * 100),
  })),
  summary: [
    { label: 'Subtotal', amount: 61_000 },
    { label: 'VAT 21 %', amount: 12_810 },
    { label: 'Total due', amount: 73_810 },
  ],
  issuedAt: new Date('2026-11-21T09:00:00Z'),
};

const rssMb = () => process.memoryUsage().rss / 2 ** 20;

async function main(): Promise<void> {
  const { renderPdf } = require(join(root, 'src/services/pdf/html-to-pdf')) as { renderPdf: typeof RenderPdf };
  const html = invoiceHtml(DRAFT);
  const rssBeforeMb = rssMb();
  const times: number[] = [];
  let rssAfterFirstMb = 0;
  for (let i = 0; i < renders; i++) {
    const started = process.hrtime.bigint();
    await renderPdf({ body: html });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (i === 0) rssAfterFirstMb = rssMb();
  }
  const firstMs = times[0];
  const sorted = times.slice(1).sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)];
  const result = { rssBeforeMb, rssAfterFirstMb, rssAfterMb: rssMb(), firstMs, medianMs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

void main();
