import { BadRequestException, Controller, Get, NotFoundException, Param, Query, Res } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Connection } from 'mongoose';
import { Roles } from '../../auth/roles.decorator';
import { Role } from '../../common/principal';
import { REPORTS } from './report-definitions';
import { writeCsv, writeXlsx } from './report-writers';

const FORMATS = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * `GET /api/v1/reports/{orders|customers|jobs}?format=csv|xlsx&from=<ISO date>&to=<ISO date>` (ADMIN): the report
 * as a download, rows in creation order, optionally limited to documents created in `[from, to)`.
 */
@ApiTags('Reports')
@Controller('api/v1/reports')
export class ReportsController {
  constructor(@InjectConnection() private readonly connection: Connection) {}

  @Roles(Role.ADMIN)
  @Get(':report')
  @ApiBearerAuth('bearer')
  @ApiOperation({ summary: 'Exports orders, customers or jobs as CSV or XLSX (format=csv|xlsx, from/to: ISO dates bounding createdAt)' })
  async export(
    @Param('report') report: string,
    @Query('format') format = 'csv',
    @Query('from') from: string | undefined,
    @Query('to') to: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const definition = Object.hasOwn(REPORTS, report) ? REPORTS[report] : undefined;
    if (!definition) throw new NotFoundException(`Unknown report "${report}"; available: ${Object.keys(REPORTS).join(', ')}`);
    if (format !== 'csv' && format !== 'xlsx') throw new BadRequestException('format must be csv or xlsx');
    const createdAt = { ...dateBound('$gte', from, 'from'), ...dateBound('$lt', to, 'to') };
    const filter = { ...definition.filter, ...(Object.keys(createdAt).length ? { createdAt } : {}) };
    const rows = this.connection.collection(definition.collection).find(filter).sort({ createdAt: 1, _id: 1 });
    res.set({ 'Content-Type': FORMATS[format], 'Content-Disposition': `attachment; filename="${report}.${format}"` });
    try {
      await (format === 'csv' ? writeCsv(rows, definition.columns, res) : writeXlsx(rows, definition.columns, report, res));
    } finally {
      await rows.close();
    }
  }
}

function dateBound(operator: '$gte' | '$lt', value: string | undefined, name: string): Record<string, Date> {
  if (value === undefined) return {};
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new BadRequestException(`${name} must be an ISO date`);
  return { [operator]: date };
}
