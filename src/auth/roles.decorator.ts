import { Reflector } from '@nestjs/core';
import { Role } from '../common/principal';

/**
 * The least role a REST route (or every route of a controller) needs; a method-level value overrides the class.
 * Without a token (or session) → 401; with a lower role → 403. Bean calls use `@Bean`/`@Exposed` roles instead.
 * @example
 * @Roles(Role.ADMIN)
 * @Get('api/v1/reports/export')
 * export(): Promise<Buffer> { ... }
 */
export const Roles = Reflector.createDecorator<Role>();
