import { Module } from '@nestjs/common';
import { AccountsModule } from '../../auth/accounts.module';
import { UserManagementService } from './user-management.service';
import { UsersTopic } from './users-topic';

/** `userManagementServiceImpl`: operators manage accounts; changes are published on `/topic/users`. */
@Module({ imports: [AccountsModule], providers: [UserManagementService, UsersTopic] })
export class UserManagementModule {}
