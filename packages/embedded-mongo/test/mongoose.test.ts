import { randomBytes } from 'node:crypto';
import mongoose, { Schema, type Connection } from 'mongoose';
import { EmbeddedMongoServer } from '../src';

let server: EmbeddedMongoServer;
let connection: Connection;

const User = new Schema({
  email: { type: String, unique: true, required: true },
  visits: { type: Number, default: 0 },
});
const Post = new Schema({ title: String, author: { type: Schema.Types.ObjectId, ref: 'User' } });
const Session = new Schema({ token: String, createdAt: { type: Date, expires: 1 } });

beforeAll(async () => {
  server = await EmbeddedMongoServer.start({ port: 0, ttlIntervalMs: 200 });
  connection = await mongoose.createConnection(`${server.uri}/mongoose`).asPromise();
});
afterAll(async () => {
  await connection.close();
  await server.stop();
});

describe('mongoose end to end', () => {
  it('surfaces E11000 from a unique index', async () => {
    const Users = connection.model('User', User);
    await Users.init();
    await Users.create({ email: 'ann@example.com' });
    await expect(Users.create({ email: 'ann@example.com' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: 'ann@example.com' },
    });
  });

  it('populates references and returns lean documents', async () => {
    const Users = connection.model('User', User);
    const Posts = connection.model('Post', Post);
    const author = await Users.create({ email: 'bob@example.com' });
    await Posts.create({ title: 'Hello', author: author._id });
    const post = await Posts.findOne({ title: 'Hello' }).populate('author').lean();
    expect(post?.author).toMatchObject({ email: 'bob@example.com' });
    expect(post).not.toBeInstanceOf(mongoose.Document);
    expect(await Users.countDocuments({ email: /example\.com$/ })).toBe(2);
  });

  it('loses no update when 50 callers run findOneAndUpdate $inc at once', async () => {
    const Users = connection.model('User', User);
    await Users.create({ email: 'busy@example.com' });
    await Promise.all(
      Array.from({ length: 50 }, () =>
        Users.findOneAndUpdate({ email: 'busy@example.com' }, { $inc: { visits: 1 } }, { returnDocument: 'after' }),
      ),
    );
    expect((await Users.findOne({ email: 'busy@example.com' }).lean())?.visits).toBe(50);
  });

  it('round-trips a 5 MB file through GridFSBucket byte for byte', async () => {
    const bucket = new mongoose.mongo.GridFSBucket(connection.db!);
    const data = randomBytes(5 * 1024 * 1024);
    await new Promise<void>((resolve, reject) => {
      const upload = bucket.openUploadStream('blob.bin');
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(data);
    });
    const chunks: Buffer[] = [];
    for await (const chunk of bucket.openDownloadStreamByName('blob.bin')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
  });

  it('expires documents through a TTL index', async () => {
    const Sessions = connection.model('Session', Session);
    await Sessions.init();
    await Sessions.create({ token: 'old', createdAt: new Date(Date.now() - 5000) });
    await Sessions.create({ token: 'fresh', createdAt: new Date(Date.now() + 60_000) });
    const deadline = Date.now() + 5000;
    while ((await Sessions.countDocuments()) > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await Sessions.find().lean()).map((s) => s.token)).toEqual(['fresh']);
  });

  it('iterates a cursor over 10 000 documents with batchSize 7', async () => {
    const Items = connection.model('Item', new Schema({ n: Number }));
    await Items.insertMany(Array.from({ length: 10_000 }, (_, n) => ({ n })));
    let count = 0;
    let sum = 0;
    for await (const item of Items.find().sort({ n: 1 }).batchSize(7).lean().cursor()) {
      count++;
      sum += item.n as number;
    }
    expect(count).toBe(10_000);
    expect(sum).toBe((9_999 * 10_000) / 2);
  });
});
