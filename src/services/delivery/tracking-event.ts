import { BadRequestException } from '@nestjs/common';
import { ParcelStatus, TrackingEvent, TrackingEventType } from './logistics.provider';

const TYPES = new Set<string>(Object.values(TrackingEventType));
const STATUSES = new Set<string>(Object.values(ParcelStatus));

/** Parses an authentic tracking webhook body; a signed body of the wrong shape is still refused (400). */
export function parseTrackingEvent(payload: string): TrackingEvent {
  let event: Partial<TrackingEvent> | null;
  try {
    event = JSON.parse(payload) as Partial<TrackingEvent> | null;
  } catch {
    throw new BadRequestException('Webhook body is not JSON');
  }
  const data = event?.data;
  const valid =
    typeof event?.id === 'string' &&
    /^evt_\w{1,64}$/.test(event.id) &&
    TYPES.has(String(event.type)) &&
    Number.isInteger(event.created) &&
    typeof data?.parcelId === 'string' &&
    typeof data.reference === 'string' &&
    typeof data.trackingNumber === 'string' &&
    STATUSES.has(String(data.status));
  if (!valid) throw new BadRequestException('Not a tracking event');
  return event as TrackingEvent;
}
