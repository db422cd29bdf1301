import { BadRequestException } from '@nestjs/common';

/** The envelope every signed webhook of our providers shares; `id` is unique per event (replays are refused by it). */
export interface WebhookEvent<Type extends string, Data> {
  id: string;
  type: Type;
  /** Unix seconds. */
  created: number;
  data: Data;
}

/**
 * Parses an authentic webhook body and checks its envelope (`id`, `type`, `created`) and, through `isData`, its `data`;
 * a signed body of the wrong shape is still refused (400 `Not <what>`).
 *
 * @example
 * parseWebhookEvent<TrackingEvent>(payload, TYPES, (data) => typeof data.parcelId === 'string', 'a tracking event');
 */
export function parseWebhookEvent<Event extends WebhookEvent<string, unknown>>(
  payload: string,
  types: ReadonlySet<string>,
  isData: (data: Record<string, unknown>) => boolean,
  what: string,
): Event {
  const event = parseJson(payload);
  const valid =
    isObject(event) &&
    typeof event.id === 'string' &&
    /^evt_\w{1,64}$/.test(event.id) &&
    types.has(String(event.type)) &&
    Number.isInteger(event.created) &&
    isObject(event.data) &&
    isData(event.data);
  if (!valid) throw new BadRequestException(`Not ${what}`);
  return event as Event;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    throw new BadRequestException('Webhook body is not JSON');
  }
}
