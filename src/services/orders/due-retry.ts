import { Logger } from '@nestjs/common';
import { DueMark, OrderRepository } from './order.repository';
import { StoredOrder } from './order.view';

/** Orders retried per sweep; the next sweep takes the rest. */
const BATCH = 100;

/**
 * One sweep of the orders owing what `mark` stands for since before `cutoff`, oldest first: each is claimed by one
 * conditional update that moves its mark to `now` (so the other instances skip it, and a claimer that dies is retried
 * after another period), then `work` does what it owes. A failure is logged with the order id and left to a later
 * sweep. How many orders `work` completed.
 */
export async function retryDue(
  orders: OrderRepository,
  { mark, cutoff, now }: { mark: DueMark; cutoff: Date; now: Date },
  work: (claimed: StoredOrder) => Promise<boolean>,
  logger: Logger,
): Promise<number> {
  let completed = 0;
  for (const seen of await orders.dueFor(mark, cutoff, BATCH)) {
    const claimed = await orders.claimDue(mark, seen, now);
    if (!claimed) continue;
    try {
      if (await work(claimed)) completed++;
    } catch (error) {
      logger.error(`Retrying the ${mark} work of order ${String(seen._id)} failed: ${(error as Error).message}`);
    }
  }
  return completed;
}
