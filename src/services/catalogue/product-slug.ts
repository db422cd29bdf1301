import { mongo } from 'mongoose';
import { wordsOf } from './search-terms';

const MAX_SLUG = 80;

/** `Ficus lyrata 'Bambino'` → `ficus-lyrata-bambino`: the name's words, accents folded, joined by `-`. */
export function slugOf(name: string): string {
  const slug = wordsOf(name).join('-').slice(0, MAX_SLUG).replace(/-+$/, '');
  return slug || 'product';
}

/**
 * Gives each product without a slug one made from its name, unique: the name's slug, else with the end of the
 * product id, else with the whole id (unique as the id is). Written straight to the collection, only where the slug
 * is still missing (a slug set meanwhile wins), and set on `products` for the entries computed from them.
 */
export async function assignMissingSlugs(collection: mongo.Collection, products: mongo.BSON.Document[]): Promise<void> {
  for (const product of products) {
    if (typeof product.slug === 'string' && product.slug !== '') continue;
    const base = slugOf(String(product.name ?? ''));
    const id = String(product._id);
    for (const candidate of [base, `${base}-${id.slice(-6)}`, `${base}-${id}`]) {
      if (await claim(collection, product, candidate)) break;
    }
  }
}

async function claim(collection: mongo.Collection, product: mongo.BSON.Document, slug: string): Promise<boolean> {
  const _id = product._id as mongo.BSON.ObjectId;
  try {
    const { matchedCount } = await collection.updateOne({ _id, slug: { $exists: false } }, { $set: { slug } });
    const found =
      matchedCount === 1 ? { slug } : await collection.findOne<{ slug?: string }>({ _id }, { projection: { slug: 1 } });
    product.slug = found?.slug;
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 11000) return false;
    throw error;
  }
}
