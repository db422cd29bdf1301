import { Global, Module } from '@nestjs/common';
import { RawWriteHook } from '../../realtime/storage/raw-write-hook';
import { StorefrontRawWrites } from './storefront-raw-writes';

/**
 * The storefront index's refresh alone, for modules that write catalogue collections by name (raw driver calls).
 * Global, because the administrators' document browser in `src/realtime`, below the feature modules, asks for it as
 * its {@link RawWriteHook} without importing this module.
 */
@Global()
@Module({
  providers: [StorefrontRawWrites, { provide: RawWriteHook, useExisting: StorefrontRawWrites }],
  exports: [StorefrontRawWrites, RawWriteHook],
})
export class StorefrontRawWritesModule {}
