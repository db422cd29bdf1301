import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { isObjectIdHex } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { PasswordHasher } from '../passwords/password-hasher.service';
import { TtlCache } from '../../common/ttl-cache';
import { User, UserDocument } from './user.schema';
import { codedError } from '../../common/errors/coded-exception';

export interface NewUser {
  username: string;
  email: string;
  password: string;
  role?: Role;
  verified?: boolean;
}

/** What every authenticated call needs to know about its user. */
export interface AccessState {
  username: string;
  role: Role;
  disabled: boolean;
  /** Tokens of another version are refused. */
  tokenVersion: number;
}

/**
 * Authenticated calls read the access state on every request; a short cache keeps that off the database. Changes
 * made through this service clear it at once; changes made on another instance show within this time.
 */
const ACCESS_STATE_CACHE_MS = 2000;

/** Reads and changes accounts. Lookups normalize case the way the schema stores it. */
@Injectable()
export class UsersService implements OnModuleInit {
  private readonly accessStates = new TtlCache<AccessState | null>(ACCESS_STATE_CACHE_MS);

  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Waits for the unique indexes, so that no request (or the admin seeding) can race their creation. */
  async onModuleInit(): Promise<void> {
    await this.users.init();
  }

  findByUsername(username: string): Promise<UserDocument | null> {
    return this.users.findOne({ username: normalize(username) }).exec();
  }

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.users.findOne({ email: normalize(email) }).exec();
  }

  /** The user's access state, or null when there is no such user. */
  async accessState(id: string): Promise<AccessState | null> {
    const cached = this.accessStates.get(id);
    if (cached !== undefined) return cached;
    const user = isAccountId(id) ? await this.users.findById(id).lean().exec() : null;
    const state = user && {
      username: user.username,
      role: user.role,
      disabled: user.disabled,
      tokenVersion: user.tokenVersion,
    };
    this.accessStates.set(id, state);
    return state;
  }

  /**
   * Hashes first, so that a taken username or address costs the same work as a free one (registration relies on it).
   * @throws ConflictException ACCOUNT_EXISTS when the username or e-mail address is taken.
   */
  async create(user: NewUser): Promise<UserDocument> {
    const passwordHash = await this.hasher.hash(user.password);
    try {
      return await this.users.create({ ...user, passwordHash });
    } catch (error: unknown) {
      if (isDuplicateKeyError(error)) {
        throw codedError('ACCOUNT_EXISTS', 'Username or e-mail address already registered');
      }
      throw error;
    }
  }

  /** Sets a new password and invalidates every token issued before. */
  async setPassword(id: string, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.users.updateOne({ _id: id }, { $set: { passwordHash }, $inc: { tokenVersion: 1 } }).exec();
    this.accessStates.delete(id);
  }

  async markVerified(id: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { verified: true }).exec();
  }

  async setDisabled(id: string, disabled: boolean): Promise<void> {
    await this.users.updateOne({ _id: id }, { $set: { disabled }, $inc: { tokenVersion: 1 } }).exec();
    this.accessStates.delete(id);
  }

  async delete(id: string): Promise<void> {
    await this.users.deleteOne({ _id: id }).exec();
    this.accessStates.delete(id);
  }

  /** The ids of the accounts of these usernames, by username (unknown ones left out). */
  async idsByUsername(usernames: string[]): Promise<Map<string, string>> {
    const found = await this.users
      .find({ username: { $in: usernames } }, { username: 1 })
      .lean()
      .exec();
    return new Map(found.map((account) => [account.username, String(account._id)]));
  }

  /**
   * Loads fixed accounts (demo data) as they are given, password hash included; those whose id is there already
   * are left as they are.
   */
  insertMissing(records: (FixedRecord & Omit<User, 'tokenVersion' | 'disabled'>)[]): Promise<void> {
    return insertMissing(this.users, records);
  }

  /** Accounts of `role` created since `since`, counted per `groupBy` (an aggregation expression), by its value. */
  countCreatedSince(role: Role, since: Date, groupBy: unknown): Promise<{ _id: string; count: number }[]> {
    return this.users
      .aggregate<{ _id: string; count: number }>([
        { $match: { role, createdAt: { $gte: since } } },
        { $group: { _id: groupBy, count: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .exec();
  }
}

/** Account ids are MongoDB ObjectIds in their 24-digit hex form. */
export function isAccountId(id: string): boolean {
  return isObjectIdHex(id);
}

function normalize(value: string): string {
  return value.trim().toLowerCase();
}
