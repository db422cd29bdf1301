import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { InjectConnection } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';

const PING_TIMEOUT_MS = 1000;

/**
 * Sends `ping` to the database. Terminus' own mongoose indicator only reads the connection state, which stays
 * "connected" for a while after the server has gone; a round trip is the honest answer.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly health: HealthIndicatorService,
  ) {}

  async ping(key = 'database'): Promise<HealthIndicatorResult> {
    const check = this.health.check(key);
    const started = Date.now();
    try {
      await withTimeout(this.sendPing(), PING_TIMEOUT_MS);
      return check.up({ latencyMs: Date.now() - started });
    } catch (error) {
      return check.down({ message: (error as Error).message });
    }
  }

  private async sendPing(): Promise<void> {
    const db = this.connection.db;
    if (!db) throw new Error('not connected');
    await db.command({ ping: 1 });
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
