import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import type { DomainEventMap } from '../../events/domain-event-map';
import { OnDomainEvent } from '../../events/domain-events';
import { EventPublisher } from '../../realtime/event-publisher';
import { CustomerActivity, CustomerActivityType } from './customer-activity.schema';
import { CustomerActivityView, toActivityView } from './customer-activity.view';

/**
 * Records what customers do, for the modules where it happens (login, product views, cart, checkout, orders), and
 * publishes it on `/topic/customer/{customerId}` as `customer.activity`.
 *
 * @example
 * await recorder.record(user.id, CustomerActivityType.LOGIN, { via: 'token' });
 */
@Injectable()
export class CustomerActivityRecorder {
  private readonly logger = new Logger(CustomerActivityRecorder.name);

  constructor(
    @InjectModel(CustomerActivity.name) private readonly activities: Model<CustomerActivity>,
    private readonly events: EventPublisher,
  ) {}

  /** Never rejects: analytics must not break the action being recorded (a failure is logged, the result is null). */
  async record(
    customerId: string,
    type: CustomerActivityType,
    data: Record<string, unknown> = {},
  ): Promise<CustomerActivityView | null> {
    try {
      const created = await this.activities.create({ customerId, type, data, at: new Date() });
      const activity = toActivityView(created.toObject());
      const event = { event: 'customer.activity', id: customerId, data: activity };
      this.events.publish(`/topic/customer/${customerId}`, event);
      return activity;
    } catch (error) {
      const detail = error instanceof Error ? error.stack : String(error);
      this.logger.error(`Could not record ${type} of customer ${customerId}`, detail);
      return null;
    }
  }

  /** A customer's password login, which the identity module announces (it sits below this module). */
  @OnDomainEvent('customer.logged-in')
  async recordLogin({ customerId }: DomainEventMap['customer.logged-in']): Promise<void> {
    await this.record(customerId, CustomerActivityType.LOGIN);
  }
}
