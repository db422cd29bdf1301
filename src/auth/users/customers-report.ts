import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Role } from '../../common/principal';
import { ReportRegistry } from '../../services/reports/report-registry';
import {
  column,
  CreatedBetween,
  ReportRows,
  ReportSource,
  rowsInCreationOrder,
} from '../../services/reports/report-source';
import { User } from './user.schema';

type StoredUser = User & { _id: Types.ObjectId; createdAt: Date };

/** The `customers` report: the USER accounts, without any secret (no password hash, no token dates). */
@Injectable()
export class CustomersReport implements ReportSource<StoredUser>, OnModuleInit {
  readonly name = 'customers';
  readonly columns = [
    column<StoredUser>('id', (user) => user._id),
    column<StoredUser>('username', (user) => user.username),
    column<StoredUser>('email', (user) => user.email),
    column<StoredUser>('verified', (user) => user.verified),
    column<StoredUser>('disabled', (user) => user.disabled),
    column<StoredUser>('createdAt', (user) => user.createdAt),
  ];

  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly reports: ReportRegistry,
  ) {}

  onModuleInit(): void {
    this.reports.register(this);
  }

  rows(created: CreatedBetween): ReportRows<StoredUser> {
    return rowsInCreationOrder<StoredUser, User>(this.users, { role: Role.USER }, created);
  }
}
