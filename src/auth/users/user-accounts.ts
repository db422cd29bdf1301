import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, QueryFilter, Types } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { escapeRegex } from '../../common/search/escape-regex';
import { isObjectIdHex } from '../../common/mongo/object-id';
import { Role } from '../../common/principal';
import { FixedRecord, insertMissing } from '../../database/insert-missing';
import { PasswordHasher } from '../passwords/password-hasher';
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

/** What an operator may filter accounts by. */
export interface AccountFilter {
  /** Literal text matched in the username or e-mail address, ignoring case. */
  text?: string;
  role?: Role;
  disabled?: boolean;
}

/** An account as stored, without the password hash. */
export type AccountRecord = Omit<User, 'passwordHash'> & { _id: Types.ObjectId; createdAt?: Date; updatedAt?: Date };

/** What an operator may change of an account's access. */
export type AccessChange = Partial<Pick<User, 'disabled' | 'role'>>;

/** The outcome of an access change. */
export type AccessChangeResult =
  { outcome: 'changed'; account: AccountRecord } | { outcome: 'not-found' } | { outcome: 'last-admin' };

const WITHOUT_HASH = { passwordHash: 0 } as const;

/**
 * Authenticated calls read the access state on every request; a short cache keeps that off the database. Changes
 * made through this service clear it at once; changes made on another instance show within this time.
 */
const ACCESS_STATE_CACHE_MS = 2000;

/** Reads and changes accounts. Lookups normalize case the way the schema stores it. */
@Injectable()
export class UserAccounts implements OnModuleInit {
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

  /** The account's e-mail address; undefined when there is no such user. */
  async emailOf(id: string): Promise<string | undefined> {
    if (!isAccountId(id)) return undefined;
    const user = await this.users.findById(id, { email: 1 }).lean().exec();
    return user?.email;
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

  /** Reads the account's access state afresh at its next check: another instance changed it. */
  forgetAccessState(id: string): void {
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

  /** Null for a malformed or unknown id. */
  async findAccount(id: string): Promise<AccountRecord | null> {
    if (!isAccountId(id)) return null;
    return this.users.findById(id, WITHOUT_HASH).lean<AccountRecord>().exec();
  }

  /** One page of accounts matching the filter, by username, with the number of matches. */
  async search(
    filter: AccountFilter,
    page: number,
    size: number,
  ): Promise<{ content: AccountRecord[]; total: number }> {
    const query = toAccountQuery(filter);
    const [content, total] = await Promise.all([
      this.users
        .find(query, WITHOUT_HASH)
        .sort({ username: 1 })
        .skip(page * size)
        .limit(size)
        .lean<AccountRecord[]>()
        .exec(),
      // An unfiltered count is the collection's size: read from its metadata rather than by scanning it.
      Object.keys(query).length === 0
        ? this.users.estimatedDocumentCount().exec()
        : this.users.countDocuments(query).exec(),
    ]);
    return { content, total };
  }

  /**
   * Disables, enables or changes the role of an account, unless that leaves no enabled ADMIN. Two operators may
   * demote the last two admins at the same moment and no check-then-write can see that; so the change is written
   * first, the enabled admins counted after it, and the change undone when none is left (both concurrent changes
   * are then undone, never both kept). Every kept change raises the token version: tokens issued before a disabling
   * or a role change never work again, not even after the account is enabled or given its old role back.
   */
  async changeAccess(id: string, change: AccessChange): Promise<AccessChangeResult> {
    if (!isAccountId(id)) return { outcome: 'not-found' };
    const before = await this.users
      .findOneAndUpdate({ _id: id }, { $set: change }, { projection: WITHOUT_HASH })
      .exec();
    if (!before) return { outcome: 'not-found' };
    if (isNoChange(before, change)) return { outcome: 'changed', account: before.toObject<AccountRecord>() };
    this.accessStates.delete(id);
    if (wasEnabledAdmin(before) && (await this.enabledAdmins()) === 0) {
      await this.users.updateOne({ _id: id }, { $set: { disabled: before.disabled, role: before.role } }).exec();
      return { outcome: 'last-admin' };
    }
    const account = await this.users
      .findOneAndUpdate(
        { _id: id },
        { $inc: { tokenVersion: 1 } },
        { returnDocument: 'after', projection: WITHOUT_HASH },
      )
      .lean<AccountRecord>()
      .exec();
    this.accessStates.delete(id);
    return account ? { outcome: 'changed', account } : { outcome: 'not-found' };
  }

  private enabledAdmins(): Promise<number> {
    return this.users.countDocuments({ role: Role.ADMIN, disabled: false }).exec();
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

function toAccountQuery({ text, role, disabled }: AccountFilter): QueryFilter<User> {
  const query: QueryFilter<User> = {};
  if (text) {
    // Stored lower-cased: a lower-cased literal (escaped, never a pattern of the caller's) matches ignoring case.
    const literal = escapeRegex(normalize(text));
    query.$or = [{ username: { $regex: literal } }, { email: { $regex: literal } }];
  }
  if (role !== undefined) query.role = role;
  if (disabled !== undefined) query.disabled = disabled;
  return query;
}

function isNoChange(account: AccessChange, change: AccessChange): boolean {
  return (Object.keys(change) as (keyof AccessChange)[]).every((key) => account[key] === change[key]);
}

function wasEnabledAdmin(account: Pick<User, 'role' | 'disabled'>): boolean {
  return account.role === Role.ADMIN && !account.disabled;
}

/** Account ids are MongoDB ObjectIds in their 24-digit hex form. */
export function isAccountId(id: string): boolean {
  return isObjectIdHex(id);
}

function normalize(value: string): string {
  return value.trim().toLowerCase();
}
