import { getModelToken } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { SellerSku } from '../../src/services/catalogue/seller-sku.schema';
import { DemoSeeder } from '../../src/seed/demo-seeder.service';
import { createApp } from '../../src/bootstrap';
import { benchEnv, listenOnFreePort } from '../bench-server';

/**
 * The app with the demo marketplace (`SEED_SCALE` copies of its catalogue, default 1) on a free port, data in memory;
 * with `TRADE_RATE` N > 0 it also changes the stock of N offers a second (trading mode); prints `{url}` as one JSON
 * line and runs until SIGTERM. Started by `run.ts`.
 */
async function main(): Promise<void> {
  const app = await createApp(benchEnv({ SEED_DEMO: 'false' }));
  await app.init();
  await app.get(DemoSeeder).seed(Number(process.env.SEED_SCALE ?? '1'));
  const rate = Number(process.env.TRADE_RATE ?? '0');
  if (rate > 0) await trade(app.get<Model<SellerSku>>(getModelToken(SellerSku.name)), rate);
  const url = await listenOnFreePort(app);
  process.stdout.write(`${JSON.stringify({ url })}\n`);
}

const CLOSED = new Set(['MongoNotConnectedError', 'MongoClientClosedError']);

/**
 * Stock writes at `rate` a second, cycling over the offers in a fixed order: a unit taken (a checkout) or given back
 * (a restock), alternately, so stock neither runs out nor grows, through the model as sellers and checkouts write.
 */
async function trade(offers: Model<SellerSku>, rate: number): Promise<void> {
  const ids = (
    await offers
      .find({ quantity: { $gt: 1 } }, { _id: 1 })
      .lean()
      .exec()
  ).map((o) => o._id);
  let next = 0;
  setInterval(() => {
    const id = ids[next % ids.length];
    const delta = Math.floor(next / ids.length) % 2 === 0 ? -1 : 1;
    next++;
    offers
      .updateOne({ _id: id }, { $inc: { quantity: delta } })
      .exec()
      .catch((error: Error) => {
        // The app closing on SIGTERM ends the connection under a write in flight; any other failure is a bench error.
        if (!CLOSED.has(error.name)) throw error;
      });
  }, 1000 / rate).unref();
}

void main();
