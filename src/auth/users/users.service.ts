import { ConflictException, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model } from 'mongoose';
import { Role } from '../../common/principal';
import { PasswordHasher } from '../passwords/password-hasher.service';
import { User, UserDocument } from './user.schema';

export interface NewUser {
  username: string;
  email: string;
  password: string;
  role?: Role;
  verified?: boolean;
}

const DUPLICATE_KEY = 11000;

/** Reads and changes accounts. Lookups normalize case the way the schema stores it. */
@Injectable()
export class UsersService {
  constructor(
    @InjectModel(User.name) private readonly users: Model<User>,
    private readonly hasher: PasswordHasher,
  ) {}

  findByUsername(username: string): Promise<UserDocument | null> {
    return this.users.findOne({ username: normalize(username) }).exec();
  }

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.users.findOne({ email: normalize(email) }).exec();
  }

  async findById(id: string): Promise<UserDocument | null> {
    return isValidObjectId(id) ? this.users.findById(id).exec() : null;
  }

  /** @throws ConflictException when the username or e-mail address is taken. */
  async create(user: NewUser): Promise<UserDocument> {
    const passwordHash = await this.hasher.hash(user.password);
    try {
      return await this.users.create({ ...user, passwordHash });
    } catch (error: unknown) {
      if ((error as { code?: unknown }).code === DUPLICATE_KEY) {
        throw new ConflictException('Username or e-mail address already registered');
      }
      throw error;
    }
  }

  /** Sets a new password and invalidates every token issued before now. */
  async setPassword(id: string, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.users.updateOne({ _id: id }, { passwordHash, tokensValidAfter: wholeSecondNow() }).exec();
  }

  async markVerified(id: string): Promise<void> {
    await this.users.updateOne({ _id: id }, { verified: true }).exec();
  }

  async setDisabled(id: string, disabled: boolean): Promise<void> {
    await this.users.updateOne({ _id: id }, { disabled, tokensValidAfter: wholeSecondNow() }).exec();
  }

  async delete(id: string): Promise<void> {
    await this.users.deleteOne({ _id: id }).exec();
  }
}

function normalize(value: string): string {
  return value.trim().toLowerCase();
}

/** JWT `iat` has whole seconds; rounding down keeps a token issued in the same second as the change valid. */
function wholeSecondNow(): Date {
  return new Date(Math.floor(Date.now() / 1000) * 1000);
}
