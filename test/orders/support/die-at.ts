/**
 * Starts the app as `src/main.ts` does, but the process kills itself with SIGKILL (what `kill -9` sends: no shutdown
 * hook, no finally, nothing flushed) when it reaches the step `DIE_AT` names, so a test can stop a real instance
 * exactly between two steps of the order path: `invoice` (the buyer's invoice of a paid order, after the move to
 * PAID) or `credit-note` (a settled refund's credit note, after the settlement).
 */
import { BuyerCreditNote } from '../../../src/services/orders/buyer-credit-note';
import { BuyerInvoice } from '../../../src/services/orders/buyer-invoice';

const steps: Record<string, [object, string]> = {
  invoice: [BuyerInvoice.prototype, 'create'],
  'credit-note': [BuyerCreditNote.prototype, 'issueSafely'],
};

const step = steps[process.env.DIE_AT ?? ''];
if (!step) throw new Error(`DIE_AT must be one of ${Object.keys(steps).join(', ')}`);
const [prototype, method] = step;
Object.defineProperty(prototype, method, {
  value: (): Promise<never> => {
    process.stdout.write(`Dying at ${String(process.env.DIE_AT)}\n`);
    process.kill(process.pid, 'SIGKILL');
    return new Promise<never>(() => undefined);
  },
});

// Loaded after the patch above (static imports would run first).
void import('../../../src/main');
