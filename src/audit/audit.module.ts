import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { AuditEntry, AuditEntrySchema } from './audit-entry.schema';
import { AuditService } from './audit.service';
import { AuditTrail } from './audit-trail';

/**
 * The audit trail of back-office changes: {@link AuditTrail} for every module that changes something on someone's
 * behalf (global, so feature modules need not import it), and the `auditServiceImpl` bean that reads it.
 */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: AuditEntry.name, schema: AuditEntrySchema }])],
  providers: [AuditTrail, AuditService],
  exports: [AuditTrail],
})
export class AuditModule {}
