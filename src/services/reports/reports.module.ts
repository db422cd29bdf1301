import { Global, Module } from '@nestjs/common';
import { ReportRegistry } from '../../common/reports/report-registry';
import { ReportsController } from './reports.controller';

/**
 * The report download. Global, so that the module owning some data registers its report with the
 * {@link ReportRegistry} (as orders, accounts and jobs do); this module reads no collection itself.
 */
@Global()
@Module({ controllers: [ReportsController], providers: [ReportRegistry], exports: [ReportRegistry] })
export class ReportsModule {}
