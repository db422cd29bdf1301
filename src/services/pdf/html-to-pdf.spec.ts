import { pdfPages } from '../../../test/support/pdf-text';
import { renderPdf } from './html-to-pdf';

describe('renderPdf', () => {
  it('should render the body text into a PDF', async () => {
    const pdf = await renderPdf({
      body: '<h1>Invoice 42</h1><p>Total: <b>19,90 €</b></p><ul><li>Ünïcode item</li></ul>',
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const [page] = await pdfPages(pdf);
    expect(page).toContain('Invoice 42');
    expect(page).toContain('19,90 €');
    expect(page).toContain('Ünïcode item');
  });

  it('should render the rows of a table written without <tbody>, and character references as text', async () => {
    const pdf = await renderPdf({
      body: '<table><tr><th>Item</th><th>Amount</th></tr><tr><td>Fern &amp; pot</td><td>19.90</td></tr></table>',
    });
    const [page] = await pdfPages(pdf);
    expect(page).toContain('Item');
    expect(page).toContain('Fern & pot');
    expect(page).toContain('19.90');
  });

  it('should repeat header and footer on every page', async () => {
    const body = Array.from({ length: 120 }, (_, i) => `<p>Line ${i}</p>`).join('');
    const pdf = await renderPdf({ header: '<p>ACME header</p>', body, footer: '<p>ACME footer</p>' });
    const pages = await pdfPages(pdf);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(page).toContain('ACME header');
      expect(page).toContain('ACME footer');
    }
    expect(pages.join('\n')).toContain('Line 119');
  });

  it('should not read local files or URLs referenced by images', async () => {
    const pdf = await renderPdf({
      body: '<p>before</p><img src="/etc/passwd"><img src="http://127.0.0.1:1/x.png"><p>after</p>',
    });
    const [page] = await pdfPages(pdf);
    expect(page).toContain('before');
    expect(page).toContain('after');
    expect(page).not.toContain('root:');
  });

  it('should render script tags as inert content', async () => {
    const pdf = await renderPdf({ body: '<script>globalThis.pwned = true</script><p>safe</p>' });
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect((await pdfPages(pdf))[0]).toContain('safe');
  });
});
