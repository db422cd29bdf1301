import { BadRequestException, Controller, Get, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../../common/authenticated-request';
import { Roles } from '../../auth/roles.decorator';
import { toObjectId } from '../../common/mongo/object-id';
import { Page, toPage } from '../../common/page';
import { hasRole, Role } from '../../common/principal';
import { InvoiceRegister } from './invoices/invoice-register';
import { InvoiceService } from './invoices/invoice.service';

const MAX_PAGE_SIZE = 200;

/** One of the buyer's invoices in their list. */
export interface InvoiceSummaryView {
  id: string;
  number: string;
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
    private readonly invoices: InvoiceService,
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
    const content = records.map(({ _id, number, orderId, issuedAt, total, currency }) => ({
      id: _id.toHexString(),
      number,
      orderId,
      issuedAt: issuedAt.toISOString(),
      total,
      currency,
    }));
    return toPage(content, total, pageNumber, pageSize);
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

/** A whole-number query parameter within bounds; absent gives `fallback`. */
function whole(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const parsed = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= min && parsed <= max))
    throw new BadRequestException(`${name} must be a whole number from ${min} to ${max}`);
  return parsed;
}
