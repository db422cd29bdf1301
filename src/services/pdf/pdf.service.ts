import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { renderPdf } from './html-to-pdf';

/** HTML to PDF documents (invoices, reports, printable pages). */
@Bean('PDFServiceImpl', Role.ADMIN)
export class PdfService {
  @Exposed(['String'], { name: 'createPdf' })
  createPdf(html: string): Promise<Buffer> {
    return renderPdf({ body: html });
  }

  @Exposed(['String', 'String', 'String'], { name: 'createPdf' })
  createPdfWithHeaderAndFooter(headerHtml: string, bodyHtml: string, footerHtml: string): Promise<Buffer> {
    return renderPdf({ header: headerHtml, body: bodyHtml, footer: footerHtml });
  }
}
