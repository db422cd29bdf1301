import { parseWebhookEvent } from '../payments';
import { ParcelStatus, TrackingEvent, TrackingEventType } from './logistics.provider';

const TYPES = new Set<string>(Object.values(TrackingEventType));
const STATUSES = new Set<string>(Object.values(ParcelStatus));

/** Parses an authentic tracking webhook body; a signed body of the wrong shape is still refused (400). */
export function parseTrackingEvent(payload: string): TrackingEvent {
  return parseWebhookEvent<TrackingEvent>(
    payload,
    TYPES,
    (data) =>
      typeof data.parcelId === 'string' &&
      typeof data.reference === 'string' &&
      typeof data.trackingNumber === 'string' &&
      STATUSES.has(String(data.status)),
    'a tracking event',
  );
}
