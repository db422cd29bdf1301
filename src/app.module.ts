import { DynamicModule, Module, Type } from '@nestjs/common';
import type { Logger as PinoLogger } from 'pino';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/audit.module';
import { AuthCoreModule } from './auth/auth-core.module';
import { AuthModule } from './auth/auth.module';
import { BeanAdmissionModule } from './bean/admission/bean-admission.module';
import { BeanCoreModule } from './bean/bean-core.module';
import { BeanModule } from './bean/bean.module';
import { CommonModule } from './common/common.module';
import { createAppLogger, loggerOptions } from './common/logger.options';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DocsModule } from './docs/docs.module';
import { HealthModule } from './health/health.module';
import { RealtimeModule } from './realtime/realtime.module';
import { StorefrontRawWritesModule } from './services/catalogue/storefront-raw-writes.module';
import { CustomerAnalyticsModule } from './services/customer-analytics/customer-analytics.module';
import { DomainEventsModule } from './events/domain-events.module';
import { SchedulingModule } from './scheduling/scheduling.module';
import { DummyTreeModule } from './services/dummy-tree/dummy-tree.module';
import { PageDeliveryModule } from './services/page-delivery/page-delivery.module';
import { ReportsModule } from './services/reports/reports.module';
import { DocumentStorageModule } from './services/document-storage/document-storage.module';
import { FilesModule } from './services/files/files.module';
import { SitemapModule } from './services/sitemap/sitemap.module';
import { ContentContainersModule } from './services/content-containers/content-containers.module';
import { BlogViewerModule } from './services/blog-viewer/blog-viewer.module';
import { PdfModule } from './services/pdf/pdf.module';
import { FileManagerModule } from './services/file-manager/file-manager.module';
import { VcsModule } from './services/vcs/vcs.module';
import { PagesModule } from './services/pages/pages.module';
import { SpaRouterModule } from './services/router/router.module';
import { JobsModule } from './services/jobs/jobs.module';
import { ProfileSearchModule } from './services/profile-search/profile-search.module';
import { TokenModule } from './services/token/token.module';
import { UserManagementModule } from './services/user-management/user-management.module';
import { SellerOnboardingModule } from './services/seller-onboarding/seller-onboarding.module';
import { SitesModule } from './sites/sites.module';
import { GeolocationModule } from './services/geolocation/geolocation.module';
import { ProductSearchModule } from './services/product-search/product-search.module';
import { ShoppingCartModule } from './services/shopping-cart/shopping-cart.module';
import { OrdersModule } from './services/orders/orders.module';
import { OrderMailModule } from './services/order-mail/order-mail.module';
import { ConnectAccountsModule } from './services/connect-accounts/connect-accounts.module';
import { AltPaymentsModule } from './services/alt-payments/alt-payments.module';
import { AccountingModule } from './services/accounting/accounting.module';
import { SeedModule } from './seed/seed.module';
import { SharedStateModule } from './shared-state/shared-state.module';

/** The application. Feature modules (one per service component) are listed in `imports`. */
@Module({
  imports: [
    CommonModule,
    DatabaseModule,
    SharedStateModule,
    HealthModule,
    DocsModule,
    SitesModule,
    AuditModule,
    AuthCoreModule,
    AuthModule,
    BeanCoreModule,
    BeanAdmissionModule,
    BeanModule,
    RealtimeModule,
    StorefrontRawWritesModule,
    DomainEventsModule,
    SchedulingModule,
    DummyTreeModule,
    PageDeliveryModule,
    ReportsModule,
    DocumentStorageModule,
    FilesModule,
    SitemapModule,
    ContentContainersModule,
    BlogViewerModule,
    PdfModule,
    FileManagerModule,
    VcsModule,
    PagesModule,
    SpaRouterModule,
    JobsModule,
    CustomerAnalyticsModule,
    TokenModule,
    UserManagementModule,
    ProfileSearchModule,
    GeolocationModule,
    ProductSearchModule,
    ShoppingCartModule,
    OrdersModule,
    OrderMailModule,
    ConnectAccountsModule,
    SellerOnboardingModule,
    AltPaymentsModule,
    AccountingModule,
    SeedModule,
  ],
})
export class AppModule {
  /**
   * Binds the start-up configuration (validated once, before Nest starts).
   * @param extraModules further modules, e.g. beans that only tests register
   */
  static forRoot(
    config: AppConfig,
    extraModules: Type[] = [],
    logger: PinoLogger = createAppLogger(config),
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), LoggerModule.forRoot(loggerOptions(logger)), ...extraModules],
    };
  }
}
