import { adminToken } from '../bench-server';
import { DemoCatalogue } from '../../src/seed/demo-data';
import { DEMO_PASSWORD } from '../../src/seed/demo-seeder';
import { demoWarehouseId } from '../../src/seed/demo-warehouses';

export const BEAN_PATH = '/api/v1/bean/request';
export const HEADERS = { 'content-type': 'application/json', 'lang-context': 'de', 'site-context': 'default' };

/** One HTTP call as autocannon takes it (and `send` below). */
export interface BenchRequest {
  method: 'POST';
  path: string;
  headers?: Record<string, string>;
  body: string;
}

/** An offer in stock in the demo catalogue: its product, and the username of its seller (who may change its stock). */
export interface StockedOffer {
  id: string;
  product: string;
  seller: string;
}

const BUYERS = ['alice', 'bruno', 'chiara'];
/** Where the bench's buyers have their orders shipped (given at checkout: the demo buyers have no address). */
const SHIPPING = { name: 'Bench Buyer', street: 'Marktplatz 1', postalCode: '10115', city: 'Berlin', country: 'DE' };

/** The demo catalogue's offers of published products with stock, in its order (the same ids the seed wrote). */
export function stockedOffers(demo: DemoCatalogue): StockedOffer[] {
  const sellerName = new Map(demo.sellers.map((seller) => [String(seller._id), seller.username]));
  const published = new Set(demo.products.filter((product) => product.published).map((product) => String(product._id)));
  return demo.sellerSkus
    .filter((offer) => offer.quantity > 1 && published.has(String(offer.product)))
    .map((offer) => ({
      id: String(offer._id),
      product: String(offer.product),
      seller: sellerName.get(String(offer.seller))!,
    }));
}

/** The seller's own stock call: `delta` units on hand at the offer's demo warehouse (README, "Offers and stock"). */
export function stockAdjustment(token: string, offer: StockedOffer, delta: number): BenchRequest {
  return {
    method: 'POST',
    path: `/api/v1/catalogue/offers/${offer.id}/stock/${String(demoWarehouseId(offer.seller))}/adjust`,
    headers: { ...HEADERS, authorization: `Bearer ${token}` },
    body: JSON.stringify({ delta }),
  };
}

export function beanRequest(beanId: string, functionName: string, args: unknown[], token?: string): BenchRequest {
  const headers = token ? { ...HEADERS, authorization: `Bearer ${token}` } : HEADERS;
  return { method: 'POST', path: BEAN_PATH, headers, body: JSON.stringify({ beanId, functionName, args }) };
}

export async function send(url: string, request: BenchRequest): Promise<Response> {
  return fetch(`${url}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
}

/** Tokens of the demo accounts (sellers and buyers), by username. */
export async function demoTokens(url: string, demo: DemoCatalogue): Promise<Map<string, string>> {
  const usernames = [...demo.sellers.map((seller) => seller.username), ...BUYERS];
  const tokens = await Promise.all(usernames.map((username) => adminToken(url, username, DEMO_PASSWORD)));
  return new Map(usernames.map((username, index) => [username, tokens[index]]));
}

export interface TradeRates {
  /** Seller stock adjustments a second. */
  stockWrites: number;
  /** Buyer checkouts (cart, then order) a second. */
  checkouts: number;
}

/**
 * The shop trading while guests browse, through the calls its people make: sellers adjust the stock of their offers
 * (one unit taken off or put back, alternately over the offers, so stock neither runs out nor grows) and buyers
 * check out one unit of an offer (`addCommerceItems`, then `orderCheckoutTo`: the real checkout, reserving stock),
 * each at its rate. A buyer still in a checkout when its next turn comes skips it (counted). A 409 (sold out) is
 * counted as refused; any other failure is kept and fails the bench at the end.
 */
export class Trading {
  readonly counts = { stockWrites: 0, checkouts: 0, refused: 0, skipped: 0 };
  readonly failures: string[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly busy = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private nextWrite = 0;
  private nextCheckout = 0;

  constructor(
    private readonly url: string,
    private readonly tokens: Map<string, string>,
    private readonly offers: StockedOffer[],
  ) {}

  start({ stockWrites, checkouts }: TradeRates): void {
    if (stockWrites > 0) this.every(1000 / stockWrites, () => this.adjustStock());
    if (checkouts > 0) this.every(1000 / checkouts, () => this.checkOut());
  }

  /** Stops starting calls and waits for those under way. */
  async stop(): Promise<void> {
    this.timers.forEach(clearInterval);
    await Promise.all(this.inFlight);
  }

  private every(ms: number, act: () => Promise<void>): void {
    this.timers.push(
      setInterval(() => {
        const running = act().catch((error: Error) => void this.failures.push(error.message));
        this.inFlight.add(running);
        void running.finally(() => this.inFlight.delete(running));
      }, ms),
    );
  }

  private async adjustStock(): Promise<void> {
    const turn = this.nextWrite++;
    const offer = this.offers[turn % this.offers.length];
    const delta = Math.floor(turn / this.offers.length) % 2 === 0 ? -1 : 1;
    await this.expectOk(stockAdjustment(this.tokens.get(offer.seller)!, offer, delta));
    this.counts.stockWrites++;
  }

  /** Buys from the far end of the offers, so that checkouts and stock writes rarely meet on one offer. */
  private async checkOut(): Promise<void> {
    const turn = this.nextCheckout++;
    const buyer = BUYERS[turn % BUYERS.length];
    if (this.busy.has(buyer)) {
      this.counts.skipped++;
      return;
    }
    const offer = this.offers[this.offers.length - 1 - (turn % this.offers.length)];
    const token = this.tokens.get(buyer)!;
    this.busy.add(buyer);
    try {
      const items = [{ items: [{ sellerSkuId: offer.id, quantity: 1 }] }];
      const placed =
        (await this.expectOk(beanRequest('shoppingCartServiceImpl', 'addCommerceItems', items, token))) &&
        (await this.expectOk(beanRequest('orderServiceImpl', 'orderCheckoutTo', [{ address: SHIPPING }], token)));
      if (placed) this.counts.checkouts++;
    } finally {
      this.busy.delete(buyer);
    }
  }

  /** @returns false for a 409 (counted as refused); throws for any other failure. */
  private async expectOk(request: BenchRequest): Promise<boolean> {
    const response = await send(this.url, request);
    if (response.ok) return true;
    const text = await response.text();
    if (response.status !== 409) throw new Error(`${request.path} ${request.body}: ${response.status} ${text}`);
    this.counts.refused++;
    return false;
  }
}
