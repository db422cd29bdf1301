import { Injectable, OnModuleDestroy } from '@nestjs/common';

const TICK_MS = 250;

/** What the monitor drives: a session, for its heart-beats and deadlines. */
export interface HeartbeatTarget {
  onHeartbeatTick(now: number): void;
}

/**
 * One timer for all sessions instead of timers per session, and a coarse clock sessions stamp their reads and
 * writes with, so that the hot path makes no clock call. Precision is the tick (a quarter second).
 */
@Injectable()
export class HeartbeatMonitor implements OnModuleDestroy {
  now = Date.now();
  private readonly targets = new Set<HeartbeatTarget>();
  private readonly timer = setInterval(() => this.tick(), TICK_MS).unref();

  add(target: HeartbeatTarget): void {
    this.now = Date.now();
    this.targets.add(target);
  }

  remove(target: HeartbeatTarget): void {
    this.targets.delete(target);
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    this.now = Date.now();
    for (const target of this.targets) target.onHeartbeatTick(this.now);
  }
}
