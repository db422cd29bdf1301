import { buildDemoCatalogue } from './demo-data';

describe('buildDemoCatalogue', () => {
  const demo = buildDemoCatalogue();

  it('should build the documented demo: 50 products, 99 SKUs, 149 offers', () => {
    expect([demo.products.length, demo.skus.length, demo.sellerSkus.length]).toEqual([50, 99, 149]);
  });

  it('should repeat the catalogue when scaled, keeping the first copy as the demo itself', () => {
    const scaled = buildDemoCatalogue(100);
    expect([scaled.products.length, scaled.skus.length, scaled.sellerSkus.length]).toEqual([5000, 9999, 14999]);
    expect(scaled.products.slice(0, 50)).toEqual(demo.products);
    expect(scaled.sellerSkus.slice(0, 149)).toEqual(demo.sellerSkus);
    expect(scaled.products[50].name).toBe(`${demo.products[0].name} 2`);
    expect(new Set(scaled.sellerSkus.map((offer) => String(offer._id))).size).toBe(14999);
    expect(scaled.sellers).toEqual(demo.sellers);
  });
});
