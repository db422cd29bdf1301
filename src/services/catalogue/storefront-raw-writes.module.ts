import { Module } from '@nestjs/common';
import { StorefrontRawWrites } from './storefront-raw-writes';

/** The storefront index's refresh alone, for modules that write catalogue collections by name (raw driver calls). */
@Module({ providers: [StorefrontRawWrites], exports: [StorefrontRawWrites] })
export class StorefrontRawWritesModule {}
