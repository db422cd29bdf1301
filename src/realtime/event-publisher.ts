import { Injectable, Logger } from '@nestjs/common';
import { MessageBroker } from './broker/message-broker';

/** A live event as DESIGN §5 describes it, before its timestamp is added. */
export interface LiveEvent {
  /** e.g. `job.updated`, `order.status`, `customer.activity`. */
  event: string;
  id: string;
  data: unknown;
}

/** Publishes live events to STOMP subscribers; for modules that report changes (jobs, orders, customers). */
@Injectable()
export class EventPublisher {
  private readonly logger = new Logger(EventPublisher.name);

  constructor(private readonly broker: MessageBroker) {}

  /**
   * Sends `{event, id, data, timestamp}` to every subscriber of `destination`. Never throws: a failed
   * publication is logged and must not fail the change that caused it.
   * @example events.publish(`/topic/job/${job.id}`, { event: 'job.updated', id: job.id, data: job });
   */
  publish(destination: string, event: LiveEvent): void {
    try {
      const body = JSON.stringify({ ...event, timestamp: new Date().toISOString() });
      this.broker.publish(destination, body);
    } catch (error) {
      this.logger.error(
        `Publishing ${event.event} to ${destination} failed`,
        error instanceof Error ? error.stack : error,
      );
    }
  }
}
