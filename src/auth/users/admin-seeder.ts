import { ConflictException, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Role } from '../../common/principal';
import { AppConfig } from '../../config';
import { UserAccounts } from './user-accounts';

/**
 * Creates the ADMIN from ADMIN_USERNAME / ADMIN_PASSWORD at first start. An existing account of that name is left
 * as it is (its password may have been changed since), so restarts and concurrent instances are harmless.
 */
@Injectable()
export class AdminSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminSeeder.name);

  constructor(
    private readonly users: UserAccounts,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { adminUsername: username, adminPassword: password, adminEmail: email } = this.config;
    if (await this.users.findByUsername(username)) return;
    try {
      await this.users.create({ username, email, password, role: Role.ADMIN, verified: true });
      this.logger.log(`Created the admin account "${username}"`);
    } catch (error: unknown) {
      if (!(error instanceof ConflictException)) throw error;
      this.logger.warn(`Admin account "${username}" not created: username or e-mail address already taken`);
    }
  }
}
