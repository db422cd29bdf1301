import { Module } from '@nestjs/common';
import { BinariesModule } from '../../binaries/binaries.module';
import { PdfModule } from '../../pdf/pdf.module';
import { InvoiceService } from './invoice.service';

/** Invoice PDFs in GridFS. Depends on no order code, so orders may import it for the buyer-to-vendor invoice. */
@Module({ imports: [PdfModule, BinariesModule], providers: [InvoiceService], exports: [InvoiceService] })
export class InvoicesModule {}
