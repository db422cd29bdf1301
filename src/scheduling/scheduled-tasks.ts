import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { HeldLock, LeaseLocks } from '../services/jobs/lease-locks';
import { ScheduledTask, ScheduledTaskMeta } from './scheduled-task.decorator';

type TickResult = number | void;

interface Task {
  meta: ScheduledTaskMeta;
  /** Called afresh on every tick, so a test's spy on the instance is seen. */
  run: () => Promise<TickResult>;
  timer?: NodeJS.Timeout;
  /** The tick under way, if any. */
  current?: Promise<void>;
  lease?: HeldLock;
}

/**
 * Runs every {@link ScheduledTask} method of every provider. Each task has a lease in the database (a
 * {@link LeaseLocks} lock, renewed while held): the instance that holds it runs the task's ticks and the others skip
 * theirs, so one instance at a time does the work; the holder keeps it until it shuts down (then the next instance
 * to tick takes it over) or stops renewing it for `JOB_LEASE_MS` (it died). A tick that comes while the previous one
 * still runs is skipped; a failure is logged and the next tick tries again. Shutdown stops the timers, waits for the
 * ticks under way and releases the leases.
 */
@Injectable()
export class ScheduledTasks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ScheduledTasks.name);
  private readonly tasks: Task[] = [];
  private stopping = false;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly locks: LeaseLocks,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.tasks.push(...this.discover());
    for (const task of this.tasks) {
      task.timer = setInterval(() => void this.tick(task), task.meta.everyMs(this.config));
      task.timer.unref();
    }
  }

  /** Runs before the database closes (Nest's order), so the ticks under way finish their writes. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.tasks.forEach((task) => clearInterval(task.timer));
    await Promise.allSettled(this.tasks.flatMap((task) => (task.current ? [task.current] : [])));
    await Promise.allSettled(this.tasks.flatMap((task) => (task.lease ? [task.lease.release()] : [])));
  }

  private discover(): Task[] {
    return this.discovery.getProviders().flatMap((wrapper) => {
      const instance = wrapper.instance as Record<string, () => Promise<TickResult>> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) return [];
      const prototype = Object.getPrototypeOf(instance) as object;
      return this.scanner.getAllMethodNames(prototype).flatMap((method) => {
        const meta = this.discovery.getMetadataByDecorator(ScheduledTask, wrapper, method);
        return meta ? [{ meta, run: () => instance[method]() }] : [];
      });
    });
  }

  private async tick(task: Task): Promise<void> {
    if (task.current || this.stopping) return;
    task.current = this.runLogged(task).finally(() => (task.current = undefined));
    await task.current;
  }

  private async runLogged(task: Task): Promise<void> {
    const { name, reports } = task.meta;
    try {
      if (!(await this.lead(task))) return;
      const done = await task.run();
      if (done && reports) this.logger.log(`${name}: ${done} ${reports}`);
    } catch (error) {
      this.logger.error(`Scheduled task ${name} failed`, (error as Error).stack ?? String(error));
    }
  }

  /** True while this instance holds the task's lease, taking it when it is free. */
  private async lead(task: Task): Promise<boolean> {
    if (task.lease && (await task.lease.stillHeld())) return true;
    await task.lease?.release(); // lost while the database was away: stop renewing it
    task.lease = (await this.locks.tryAcquire(`scheduled-task:${task.meta.name}`)) ?? undefined;
    return task.lease !== undefined;
  }
}
