import { HttpException, HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { AppConfig } from '../../config';
import { SharedCounters } from '../../shared-state/shared-counters';
import { LoginLockout } from './login-lockout.schema';

const RATE_WINDOW_MS = 60_000;

/**
 * Limits credential attempts (DESIGN §9) so that nobody can lock someone else out:
 * - per client and username: `AUTH_RATE_LIMIT` attempts a minute; `AUTH_LOCKOUT_THRESHOLD` failures lock that client
 *   (not the username) out of it for `AUTH_LOCKOUT_TTL`, even for the right password;
 * - per username, from all clients: past `AUTH_USERNAME_SOFT_LIMIT` failures within `AUTH_LOCKOUT_TTL`, the username
 *   is slowed to one attempt per `AUTH_USERNAME_SLOW_SECONDS`, which stops a guess spread over many addresses
 *   without locking the owner out.
 * Unknown usernames are counted the same way, so neither reveals which exist. Counters are shared through Redis
 * when it is configured; lockouts, rare and meant to last, are in the database: one budget across instances.
 */
@Injectable()
export class LoginThrottle {
  private readonly logger = new Logger(LoginThrottle.name);

  constructor(
    private readonly config: AppConfig,
    private readonly counters: SharedCounters,
    @InjectModel(LoginLockout.name) private readonly lockouts: Model<LoginLockout>,
  ) {}

  /** Counts one attempt. @throws HttpException 429 when over a limit or while the client is locked out. */
  async registerAttempt(client: string, username: string): Promise<void> {
    const name = normalize(username);
    const attempts = await this.counters.increment(`login:attempts:${client}|${name}`, RATE_WINDOW_MS);
    if (attempts > this.config.authRateLimit || (await this.isLockedOut(client, name)) || !(await this.mayTry(name))) {
      throw new HttpException('Too many attempts; try again later', HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  async recordFailure(client: string, username: string): Promise<void> {
    const name = normalize(username);
    const windowMs = this.config.authLockoutSeconds * 1000;
    await this.counters.increment(`login:failures:${name}`, windowMs);
    const failures = await this.counters.increment(`login:failures:${client}|${name}`, windowMs);
    if (failures < this.config.authLockoutThreshold) return;
    await this.counters.reset(`login:failures:${client}|${name}`);
    const expiresAt = new Date(Date.now() + windowMs);
    await this.lockouts.updateOne({ username: name, client }, { $set: { expiresAt } }, { upsert: true });
    const seconds = this.config.authLockoutSeconds;
    this.logger.warn(`Client ${client} locked out of "${name}" for ${seconds} s after failed logins`);
  }

  async recordSuccess(client: string, username: string): Promise<void> {
    await this.counters.reset(`login:failures:${client}|${normalize(username)}`);
  }

  private async isLockedOut(client: string, username: string): Promise<boolean> {
    return (await this.lockouts.exists({ username, client, expiresAt: { $gt: new Date() } })) !== null;
  }

  /** Past the username-wide soft limit, one attempt per slot, whoever takes it. */
  private async mayTry(username: string): Promise<boolean> {
    const failures = await this.counters.count(`login:failures:${username}`);
    if (failures < this.config.authUsernameSoftLimit) return true;
    return this.counters.claim(`login:slot:${username}`, this.config.authUsernameSlowSeconds * 1000);
  }
}

function normalize(username: string): string {
  return username.trim().toLowerCase().slice(0, 256);
}
