import { BadRequestException, Controller, Get, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { Roles } from '../../auth/roles.decorator';
import { toObjectId } from '../../common/mongo/object-id';
import { Page, toPage } from '../../common/page';
import { hasRole, Role } from '../../common/principal';
import { InvoiceKind } from './invoices/invoice';
import { StoredInvoiceRecord } from './invoices/invoice-record.schema';
import { InvoiceRegister } from './invoices/invoice-register';
import { InvoiceIssuer } from './invoices/invoice-issuer';

const MAX_PAGE_SIZE = 200;

/** One invoice or credit note in a list. */
export interface InvoiceSummaryView {
  id: string;
  number: string;
  /** `buyer-to-vendor` (an invoice) or `credit-note` for the buyer; payout and commission documents for the seller. */
  kind: InvoiceKind;
  orderId: string;
  issuedAt: string;
  /** Integer minor units of `currency`. */
  total: number;
  currency: string;
}

/**
 * Invoices for the people they concern. `GET mine`: the caller's invoices as a buyer. `GET :invoiceId/pdf`: the PDF,
 * for the invoice's buyer, the user acting for the order's seller, or an ADMIN; to anyone else the invoice does not
 * exist (404, not 403, so ids cannot be probed).
 */
@ApiTags('Invoices')
@Controller('api/v1/invoices')
export class InvoicesController {
  constructor(
    private readonly register: InvoiceRegister,
    private readonly invoices: InvoiceIssuer,
  ) {}

  @Roles(Role.USER)
  @Get('mine')
  @ApiBearerAuth('bearer')
  @ApiOperation({ summary: "The caller's invoices as a buyer, newest first (page: 0-based, size: 1-200, default 20)" })
  async mine(
    @Req() request: AuthenticatedRequest,
    @Query('page') page: unknown,
    @Query('size') size: unknown,
  ): Promise<Page<InvoiceSummaryView>> {
    const [pageNumber, pageSize] = [whole(page, 'page', 0, 0, 1_000_000), whole(size, 'size', 20, 1, MAX_PAGE_SIZE)];
    const [records, total] = await this.register.ofBuyer(request.principal!.id, pageNumber, pageSize);
    return toPage(records.map(toSummary), total, pageNumber, pageSize);
  }

  @Roles(Role.USER)
  @Get('orders/:orderId')
  @ApiBearerAuth('bearer')
  @ApiOperation({
    summary:
      "An order's invoices and credit notes that the caller may read (its buyer, its seller's user, an ADMIN: all), " +
      'oldest first; [] for anyone else',
  })
  async ofOrder(
    @Req() request: AuthenticatedRequest,
    @Param('orderId') orderId: string,
  ): Promise<InvoiceSummaryView[]> {
    const principal = request.principal!;
    const reader = hasRole(principal.role, Role.ADMIN) ? null : principal.id;
    const records = await this.register.ofOrder(toObjectId(orderId, 'orderId').toHexString(), reader);
    return records.map(toSummary);
  }

  @Roles(Role.USER)
  @Get(':invoiceId/pdf')
  @ApiBearerAuth('bearer')
  @ApiProduces('application/pdf')
  @ApiOperation({
    summary: "An invoice's PDF as a download, for its buyer, its seller's user or an ADMIN; 404 for anyone else",
  })
  async pdf(
    @Req() request: AuthenticatedRequest,
    @Param('invoiceId') invoiceId: string,
    @Res() res: Response,
  ): Promise<void> {
    const principal = request.principal!;
    const reader = hasRole(principal.role, Role.ADMIN) ? null : principal.id;
    const record = await this.register.findReadable(toObjectId(invoiceId, 'invoiceId'), reader);
    if (!record) throw new NotFoundException(`Invoice ${invoiceId} not found`);
    const content = await this.invoices.pdfOf(record);
    res.set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${record.number}.pdf"`,
      'Content-Length': String(content.length),
    });
    res.end(content);
  }
}

function toSummary(record: StoredInvoiceRecord): InvoiceSummaryView {
  const { _id, number, kind, orderId, issuedAt, total, currency } = record;
  return { id: _id.toHexString(), number, kind, orderId, issuedAt: issuedAt.toISOString(), total, currency };
}

/** A whole-number query parameter within bounds; absent gives `fallback`. */
function whole(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= min && parsed <= max))
    throw new BadRequestException(`${name} must be a whole number from ${min} to ${max}`);
  return parsed;
}
