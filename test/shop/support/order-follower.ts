import { TestStompClient } from '../../realtime/stomp-client';
import { Person } from './people';

/** How long a state change may take to arrive before the wait gives up (a bound, not an expected duration). */
export const EVENT_BOUND_MS = 30_000;

export interface OrderEvent {
  event: string;
  id: string;
  data: { id: string; status: string; [field: string]: unknown };
}

/**
 * A person's STOMP session following their orders on `/topic/order/{id}`, as a shop's front end would: the waits
 * take the order's events one by one, in the order published, and remember the statuses seen.
 */
export class OrderFollower {
  private readonly seen = new Map<string, string[]>();

  private constructor(private readonly stomp: TestStompClient) {}

  static async connect(baseUrl: string, person: Person): Promise<OrderFollower> {
    return new OrderFollower(await TestStompClient.connect(baseUrl, { token: person.token }));
  }

  /** Subscribes (and waits for the receipt) before the action whose events are awaited. */
  async follow(orderId: string): Promise<void> {
    await this.stomp.subscribe(topicOf(orderId));
    this.seen.set(orderId, []);
  }

  /** Takes the order's events until one announces `status`; that event's order. */
  async until(orderId: string, status: string, boundMs = EVENT_BOUND_MS): Promise<OrderEvent['data']> {
    const deadline = Date.now() + boundMs;
    for (;;) {
      const message = await this.stomp
        .next<OrderEvent>(topicOf(orderId), () => true, Math.max(0, deadline - Date.now()))
        .catch(() => {
          const seen = this.statuses(orderId).join(', ') || 'nothing';
          throw new Error(`Order ${orderId} did not become ${status} within ${boundMs} ms; seen: ${seen}`);
        });
      if (message.event !== 'order.status' || message.id !== orderId) continue;
      this.seen.get(orderId)!.push(message.data.status);
      if (message.data.status === status) return message.data;
    }
  }

  /** The statuses announced since `follow`, as far as the waits took them. */
  statuses(orderId: string): string[] {
    return [...(this.seen.get(orderId) ?? [])];
  }

  disconnect(): Promise<void> {
    return this.stomp.disconnect();
  }
}

const topicOf = (orderId: string) => `/topic/order/${orderId}`;
