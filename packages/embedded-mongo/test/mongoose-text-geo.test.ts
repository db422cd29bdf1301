import mongoose, { Schema, type Connection } from 'mongoose';
import { EmbeddedMongoServer } from '../src';

let server: EmbeddedMongoServer;
let connection: Connection;

beforeAll(async () => {
  server = await EmbeddedMongoServer.start({ port: 0 });
  connection = await mongoose.createConnection(`${server.uri}/mongoose_text_geo`).asPromise();
});
afterAll(async () => {
  await connection.close();
  await server.stop();
});

const Product = new Schema({ title: String, description: String });
Product.index({ title: 'text', description: 'text' }, { weights: { title: 5 }, name: 'product_search' });

const Seller = new Schema({
  name: String,
  location: { type: { type: String, enum: ['Point'] }, coordinates: [Number] },
});
Seller.index({ location: '2dsphere' });

describe('mongoose with text and geo indexes', () => {
  it('creates a weighted text index from the schema and ranks by textScore', async () => {
    const Products = connection.model('Product', Product);
    await Products.init();
    await Products.create([
      { title: 'Espresso machine', description: 'Makes coffee at home' },
      { title: 'Coffee beans', description: 'Roasted coffee beans from Brazil' },
      { title: 'Tea pot', description: 'For tea, not coffee' },
    ]);
    const ranked = await Products.find({ $text: { $search: 'coffee' } }, { score: { $meta: 'textScore' } })
      .sort({ score: { $meta: 'textScore' } })
      .lean<Array<{ title: string; score: number }>>();
    // Title weight 5 puts "Coffee beans" first; "coffee" is 1 of 2 words (stop words aside) in the tea pot's
    // description but 1 of 3 in the espresso machine's, so the tea pot scores 0.75 and the machine 0.667.
    expect(ranked.map((product) => product.title)).toEqual(['Coffee beans', 'Tea pot', 'Espresso machine']);
    expect(ranked.map((product) => product.score)).toEqual([5 * 0.75 + 0.625, 0.75, 0.5 / 3 + 0.5]);
    expect(await Products.syncIndexes()).toEqual([]);
    expect(await Products.countDocuments({ $text: { $search: 'tea -coffee' } })).toBe(0);
  });

  it('finds sellers near a point with query helpers, $near and an aggregate $geoNear', async () => {
    const Sellers = connection.model('Seller', Seller);
    await Sellers.init();
    const point = (lng: number, lat: number) => ({
      type: 'Point' as const,
      coordinates: [lng, lat] as [number, number],
    });
    await Sellers.create([
      { name: 'Alexanderplatz', location: point(13.4132, 52.5219) },
      { name: 'Potsdamer Platz', location: point(13.3759, 52.5096) },
      { name: 'Hamburg', location: point(9.9937, 53.5511) },
    ]);
    const here = point(13.405, 52.52);
    const near = await Sellers.find()
      .where('location')
      .near({ center: here, maxDistance: 5000, spherical: true })
      .lean();
    expect(near.map((seller) => seller.name)).toEqual(['Alexanderplatz', 'Potsdamer Platz']);
    const within = await Sellers.find({
      location: { $geoWithin: { $centerSphere: [[13.405, 52.52], 1 / 6378.1] } },
    }).lean();
    expect(within.map((seller) => seller.name)).toEqual(['Alexanderplatz']);
    const distances = await Sellers.aggregate([
      { $geoNear: { near: here, distanceField: 'meters' } },
      { $project: { _id: 0, name: 1, meters: 1 } },
    ]);
    expect(distances.map((seller) => seller.name)).toEqual(['Alexanderplatz', 'Potsdamer Platz', 'Hamburg']);
    expect(distances[2].meters).toBeGreaterThan(250_000);
    await expect(Sellers.create({ name: 'Nowhere', location: point(13, 120) })).rejects.toMatchObject({ code: 16755 });
    expect(await Sellers.syncIndexes()).toEqual([]);
    const box = await Sellers.find().where('location').within().box([13, 52], [14, 53]).lean();
    expect(box.map((seller) => seller.name).sort()).toEqual(['Alexanderplatz', 'Potsdamer Platz']);
  });
});
