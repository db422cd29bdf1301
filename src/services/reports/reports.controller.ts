import { BadRequestException, Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { ReportRegistry } from '../../common/reports/report-registry';
import { CreatedBetween } from '../../common/reports/report-source';
import { writeCsv, writeXlsx } from './report-writers';

const FORMATS = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * `GET /api/v1/reports/{orders|customers|jobs}?format=csv|xlsx&from=<ISO date>&to=<ISO date>` (ADMIN): the report
 * as a download, rows in creation order, optionally limited to documents created in `[from, to)`. The reports are
 * those the owning modules registered with the {@link ReportRegistry}.
 */
@ApiTags('Reports')
@Controller('api/v1/reports')
export class ReportsController {
  constructor(private readonly reports: ReportRegistry) {}

  @Roles(Role.ADMIN)
  @Get(':report')
  @ApiBearerAuth('bearer')
  @ApiOperation({
    summary:
      'Exports orders, customers or jobs as CSV or XLSX (format=csv|xlsx, from/to: ISO dates bounding createdAt)',
  })
  async export(
    @Param('report') report: string,
    @Query('format') format = 'csv',
    @Query('from') from: string | undefined,
    @Query('to') to: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const source = this.reports.find(report);
    if (!source)
      throw new NotFoundException(`Unknown report "${report}"; available: ${this.reports.names().join(', ')}`);
    if (format !== 'csv' && format !== 'xlsx') throw new BadRequestException('format must be csv or xlsx');
    const created: CreatedBetween = { from: date(from, 'from'), to: date(to, 'to') };
    const rows = source.rows(created);
    res.set({ 'Content-Type': FORMATS[format], 'Content-Disposition': `attachment; filename="${report}.${format}"` });
    try {
      await (format === 'csv' ? writeCsv(rows, source.columns, res) : writeXlsx(rows, source.columns, report, res));
    } finally {
      await rows.close();
    }
  }
}

function date(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(parsed.getTime())) {
    throw new BadRequestException(`${name} must be an ISO date`);
  }
  return parsed;
}
