import { DiscoveryService } from '@nestjs/core';
import { AppConfig } from '../config/app-config';

export interface ScheduledTaskMeta {
  /** Names the task in logs and its lease (`scheduled-task:<name>` in `lease_locks`). */
  name: string;
  /** How often a tick comes, from the configuration (read once at start-up). */
  everyMs: (config: AppConfig) => number;
  /** What the count a tick returns counts, for its log line (e.g. `unpaid order(s) canceled`); none: not logged. */
  reports?: string;
}

/**
 * Declares a provider's method as recurring work: {@link ScheduledTasks} calls it every `everyMs` on the one instance
 * that holds the task's lease, never two ticks at once, logs what it returns (a count of things done) and its
 * failures, and at shutdown waits for a tick under way. The method takes no argument it needs.
 * @example
 * \@ScheduledTask({ name: 'order-expiry', everyMs: (config) => config.orderPaymentTtlMs / 4, reports: 'orders canceled' })
 * async sweep(): Promise<number> { ... }
 */
export const ScheduledTask = DiscoveryService.createDecorator<ScheduledTaskMeta>();
