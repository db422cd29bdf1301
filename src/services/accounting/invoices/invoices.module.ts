import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { BinariesModule } from '../../binaries/binaries.module';
import { PdfModule } from '../../pdf/pdf.module';
import { DocumentNumbering, SellerNumbering, SellerNumberingSchema } from './document-numbering';
import { InvoiceRecord, InvoiceRecordSchema } from './invoice-record.schema';
import { InvoiceRegister } from './invoice-register';
import { InvoiceIssuer } from './invoice-issuer';

/**
 * The invoice register and the invoice PDFs in GridFS. Depends on no order code, so orders may import it for the
 * buyer-to-vendor invoice.
 */
@Module({
  imports: [
    PdfModule,
    BinariesModule,
    MongooseModule.forFeature([
      { name: InvoiceRecord.name, schema: InvoiceRecordSchema },
      { name: SellerNumbering.name, schema: SellerNumberingSchema },
    ]),
  ],
  providers: [InvoiceIssuer, InvoiceRegister, DocumentNumbering],
  exports: [InvoiceIssuer, InvoiceRegister, DocumentNumbering],
})
export class InvoicesModule {}
