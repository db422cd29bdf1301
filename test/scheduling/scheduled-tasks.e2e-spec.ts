import { getConnectionToken } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { OrderPaidRetry } from '../../src/services/orders/order-paid-retry';
import { Cluster, startCluster } from '../support/cluster';
import { eventually } from '../support/eventually';
import { TestApp } from '../support/test-app';

/** A promise that resolves once `open` is called. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * The scheduled-task helper on two instances of one database, seen through a real task (`order-paid-retry`, every
 * 500 ms with `INVOICE_RETRY_AFTER=2s`): the instance holding the task's lease runs every tick and the other none;
 * the holder's shutdown waits for its tick under way (the tick still reaches the database) and hands the lease over.
 */
describe('scheduled tasks on two instances', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ env: { INVOICE_RETRY_AFTER: '2s' } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const sweepOf = (app: TestApp) => jest.spyOn(app.app.get(OrderPaidRetry), 'sweep');

  it('should run each tick on one instance only, and hand the task over at shutdown after the tick under way', async () => {
    const [a, b] = cluster.instances;
    const sweeps = [sweepOf(a), sweepOf(b)];
    await eventually(
      async () => sweeps.map((sweep) => sweep.mock.calls.length),
      (counts) => counts[0] + counts[1] >= 4,
      'four ticks of order-paid-retry',
    );
    const counts = sweeps.map((sweep) => sweep.mock.calls.length);
    expect(counts.filter((count) => count > 0)).toHaveLength(1);
    const leader = counts[0] > 0 ? 0 : 1;
    const holder = leader === 0 ? a : b;
    const [holderSweep, otherSweep] = leader === 0 ? sweeps : [sweeps[1], sweeps[0]];

    // The holder's next tick blocks until the shutdown has had every chance to close the database under it.
    const started = gate();
    const release = gate();
    const steps: string[] = [];
    const connection = holder.app.get<Connection>(getConnectionToken());
    connection.once('close', () => (steps.push('database closed'), release.open()));
    const retry = holder.app.get(OrderPaidRetry);
    holderSweep.mockImplementationOnce(async (now?: Date) => {
      started.open();
      await release.opened;
      // The spy's own implementation is used up: this is the real sweep, which reads the orders (it fails if the
      // database closed meanwhile).
      const done = await retry.sweep(now);
      steps.push('tick finished');
      return done;
    });
    await started.opened;
    const stopped = holder.stop().then(() => steps.push('stopped'));
    // Bounded: a helper that does not wait has closed the database long before this.
    const bound = setTimeout(() => release.open(), 3000);
    await stopped;
    clearTimeout(bound);
    cluster.instances.splice(cluster.instances.indexOf(holder), 1);
    expect(steps).toEqual(['tick finished', 'database closed', 'stopped']);

    const before = otherSweep.mock.calls.length;
    // The lease was released at shutdown: the other instance's next tick takes the task over.
    await eventually(
      async () => otherSweep.mock.calls.length,
      (count) => count > before,
      'a tick on the other instance',
    );
  });
});
