import { Injectable } from '@nestjs/common';
import { TrackingEvent } from './logistics.provider';

export type TrackingEventHandler = (event: TrackingEvent) => Promise<void>;

/** Hands authentic, first-seen tracking events to the modules that follow parcels (orders). */
@Injectable()
export class TrackingEvents {
  private readonly handlers: TrackingEventHandler[] = [];

  subscribe(handler: TrackingEventHandler): void {
    this.handlers.push(handler);
  }

  async dispatch(event: TrackingEvent): Promise<void> {
    for (const handler of this.handlers) await handler(event);
  }
}
