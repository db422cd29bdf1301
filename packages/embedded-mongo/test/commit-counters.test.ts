import { MongoClient, ObjectId } from 'mongodb';
import { CommitCounters, EmbeddedMongoServer } from '../src';
import { startHarness, tempDir, type AnyDoc, type Harness } from './helpers';

const WATCHED = 't.watched';

/**
 * Commit counters (`commitCounters` option): the server bumps a document's slot and its namespace's slot for every
 * write of a watched namespace before any client is answered, so the caller's thread, reading the shared memory,
 * sees a write acknowledged to any client (here over TCP, as another process would write) on its next look.
 */
describe('commit counters', () => {
  let harness: Harness;
  let counters: CommitCounters;
  const watched = () => harness.client.db('t').collection<AnyDoc>('watched');
  const docSlot = (id: unknown) => counters.value(counters.documentSlot(WATCHED, id));
  const nsSlot = () => counters.value(counters.collectionSlot(WATCHED));

  beforeAll(async () => {
    harness = await startHarness({ commitCounters: { namespaces: [WATCHED, 't.dropped'], slots: 4096 } });
    counters = harness.server.commitCounters!;
  });
  afterAll(() => harness.stop());

  /** How much each slot of `ids` (and the namespace's) moved over `write`, acknowledged to the TCP client. */
  async function moves(ids: unknown[], write: () => Promise<unknown>) {
    const before = ids.map(docSlot);
    const nsBefore = nsSlot();
    await write();
    return { docs: ids.map((id, at) => docSlot(id) - before[at]), ns: nsSlot() - nsBefore };
  }

  it('counts each document an acknowledged insert, update, replace and delete wrote', async () => {
    expect(await moves(['a', 'b'], () => watched().insertMany([{ _id: 'a' }, { _id: 'b' }]))).toEqual({
      docs: [1, 1],
      ns: 2,
    });
    expect(await moves(['a', 'b'], () => watched().updateOne({ _id: 'a' }, { $set: { n: 1 } }))).toEqual({
      docs: [1, 0],
      ns: 1,
    });
    expect(await moves(['a', 'b'], () => watched().updateMany({}, { $set: { all: true } }))).toEqual({
      docs: [1, 1],
      ns: 2,
    });
    expect(await moves(['b'], () => watched().replaceOne({ _id: 'b' }, { x: 1 }))).toEqual({ docs: [1], ns: 1 });
    expect(await moves(['b'], () => watched().findOneAndUpdate({ _id: 'b' }, { $set: { x: 2 } }))).toEqual({
      docs: [1],
      ns: 1,
    });
    expect(await moves(['a'], () => watched().deleteOne({ _id: 'a' }))).toEqual({ docs: [1], ns: 1 });
  });

  it('counts the writes of a bulk write and of an upsert, by the _id as the driver sends it', async () => {
    const oid = new ObjectId();
    const bulk = () =>
      watched().bulkWrite([
        { insertOne: { document: { _id: 'c' } } },
        { updateOne: { filter: { _id: oid as never }, update: { $set: { y: 1 } }, upsert: true } },
        { deleteOne: { filter: { _id: 'c' } } },
      ]);
    expect(await moves(['c', oid], bulk)).toEqual({ docs: [2, 1], ns: 3 });
  });

  it('counts nothing for a write that changes nothing', async () => {
    await watched().insertOne({ _id: 'same', v: 1 });
    expect(await moves(['same'], () => watched().updateOne({ _id: 'missing' }, { $set: { v: 2 } }))).toEqual({
      docs: [0],
      ns: 0,
    });
    expect(await moves(['same'], () => watched().updateOne({ _id: 'same' }, { $set: { v: 1 } }))).toEqual({
      docs: [0],
      ns: 0,
    });
  });

  it('leaves collections that are not watched uncounted', async () => {
    const other = harness.client.db('t').collection<AnyDoc>('other');
    const slot = counters.documentSlot('t.other', 'z');
    await other.insertOne({ _id: 'z' });
    expect(counters.value(slot)).toBe(0);
    expect(counters.value(counters.collectionSlot('t.other'))).toBe(0);
  });

  it('moves every slot when a watched collection is dropped', async () => {
    const dropped = harness.client.db('t').collection<AnyDoc>('dropped');
    await dropped.insertOne({ _id: 'd' });
    const slot = counters.documentSlot(WATCHED, 'never-written');
    const before = counters.value(slot);
    await dropped.drop();
    expect(counters.value(slot)).toBe(before + 1);
  });

  it('counts the writes a second client acknowledged before that client has its answer', async () => {
    const second = await MongoClient.connect(harness.server.uri);
    try {
      const id = new ObjectId();
      const slot = counters.documentSlot(WATCHED, id);
      const before = counters.value(slot);
      const seen: number[] = [];
      await second
        .db('t')
        .collection('watched')
        .insertOne({ _id: id })
        .then(() => seen.push(counters.value(slot)));
      expect(seen).toEqual([before + 1]);
    } finally {
      await second.close();
    }
  });

  it('counts the writes of a durable store too', async () => {
    const dir = tempDir();
    const server = await EmbeddedMongoServer.start({ port: 0, dbPath: dir.path, commitCounters: {} });
    const client = await MongoClient.connect(server.uri);
    try {
      const durable = server.commitCounters!;
      await client.db('d').collection<AnyDoc>('any').insertOne({ _id: 7 });
      expect(durable.value(durable.documentSlot('d.any', 7))).toBe(1);
    } finally {
      await client.close();
      await server.stop();
      dir.remove();
    }
  });

  it('is off unless asked for', async () => {
    const plain = await startHarness();
    try {
      expect(plain.server.commitCounters).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
