import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, Types } from 'mongoose';
import { Role } from '../../common/principal';
import { ReportRegistry } from '../../common/reports/report-registry';
import { ModelReport } from '../../common/reports/model-report';
import { column } from '../../common/reports/report-source';
import { User } from './user.schema';

type StoredUser = User & { _id: Types.ObjectId; createdAt: Date };

/** The `customers` report: the USER accounts, without any secret (no password hash, no token dates). */
@Injectable()
export class CustomersReport extends ModelReport<StoredUser, User> {
  readonly name = 'customers';
  readonly columns = [
    column<StoredUser>('id', (user) => user._id),
    column<StoredUser>('username', (user) => user.username),
    column<StoredUser>('email', (user) => user.email),
    column<StoredUser>('verified', (user) => user.verified),
    column<StoredUser>('disabled', (user) => user.disabled),
    column<StoredUser>('createdAt', (user) => user.createdAt),
  ];

  constructor(@InjectModel(User.name) users: Model<User>, reports: ReportRegistry) {
    super(reports, users, { role: Role.USER });
  }
}
