import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../../config';
import { secretHash } from '../secret-hash';
import { Session } from './session.schema';

export interface NewSession {
  /** The cookie value; only its hash is stored. */
  id: string;
  expiresAt: Date;
}

/** Database-backed login sessions. */
@Injectable()
export class SessionStore {
  constructor(
    @InjectModel(Session.name) private readonly sessions: Model<Session>,
    private readonly config: AppConfig,
  ) {}

  async create(userId: string, rememberMe: boolean): Promise<NewSession> {
    const id = randomBytes(32).toString('base64url');
    const ttl = rememberMe ? this.config.rememberMeTtlSeconds : this.config.sessionTtlSeconds;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    await this.sessions.create({ _id: secretHash(id), userId, rememberMe, expiresAt });
    return { id, expiresAt };
  }

  /** The user id of a live session, or null. Expiry is checked here too: TTL deletion runs only periodically. */
  async userIdOf(id: string): Promise<string | null> {
    const session = await this.sessions
      .findOne({ _id: secretHash(id), expiresAt: { $gt: new Date() } })
      .lean()
      .exec();
    return session ? String(session.userId) : null;
  }

  async destroy(id: string): Promise<void> {
    await this.sessions.deleteOne({ _id: secretHash(id) }).exec();
  }

  async destroyAllOf(userId: string): Promise<void> {
    await this.sessions.deleteMany({ userId }).exec();
  }
}
