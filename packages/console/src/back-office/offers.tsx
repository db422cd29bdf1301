import { useEffect, useState } from 'preact/hooks';
import { Api } from '../api';
import { useConsole } from '../context';
import { formatMoney } from './money';

interface SellerOffer {
  id: string;
  skuId: string;
  productId: string;
  price: number;
  currency: string;
  active: boolean;
  quantity: number;
  reserved: number;
  stockByWarehouse: { warehouseId: string; onHand: number }[];
}

const OFFERS = '/api/v1/catalogue';

/** The seller's REST offers API with the console's token; the server's error message on a refusal. */
async function offersApi<T>(api: Api, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${OFFERS}${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${api.client.token?.token ?? ''}`,
    },
  });
  const body = (await response.json()) as T & { status?: number; message?: string };
  if (!response.ok) throw new Error(`${response.status} ${body.message ?? ''}`);
  return body;
}

/** The seller's offers with their stock per warehouse (a USER acting for a seller); stock set per warehouse. */
export function Offers() {
  const { api, t, lang } = useConsole();
  const [offers, setOffers] = useState<SellerOffer[] | null>(null);
  const [problem, setProblem] = useState('');

  async function load() {
    setOffers((await offersApi<{ items: SellerOffer[] }>(api, '/sellers/me/offers?limit=200')).items);
  }
  useEffect(() => void load().catch((error: Error) => setProblem(error.message)), [api]);

  async function setStock(offer: SellerOffer, warehouseId: string, onHand: number) {
    setProblem('');
    try {
      const body = JSON.stringify({ quantity: onHand });
      await offersApi(api, `/offers/${offer.id}/stock/${warehouseId}`, { method: 'PUT', body });
      await load();
    } catch (error) {
      setProblem((error as Error).message);
    }
  }

  return (
    <section aria-labelledby="offers-heading">
      <h2 id="offers-heading">{t('navOffers')}</h2>
      {problem ? <p role="alert">{problem}</p> : null}
      {offers === null && !problem ? <p>{t('loading')}</p> : null}
      {offers?.length === 0 ? <p>{t('notFound')}</p> : null}
      <ul class="cards">
        {offers?.map((offer) => (
          <li key={offer.id}>
            <article aria-label={t('offerTitle', { id: offer.id })} data-offer-id={offer.id}>
              <h3>{t('offerTitle', { id: offer.id })}</h3>
              <p>
                SKU {offer.skuId} · {formatMoney(offer.price, offer.currency, lang)} ·{' '}
                <span class="available">{t('available', { count: offer.quantity })}</span> ·{' '}
                {t('reserved', { count: offer.reserved })}
              </p>
              {offer.stockByWarehouse.map((stock) => (
                <StockForm
                  key={stock.warehouseId}
                  stock={stock}
                  onSave={(n) => setStock(offer, stock.warehouseId, n)}
                />
              ))}
            </article>
          </li>
        ))}
      </ul>
    </section>
  );
}

function StockForm(props: { stock: { warehouseId: string; onHand: number }; onSave: (n: number) => Promise<void> }) {
  const { t } = useConsole();
  const [value, setValue] = useState(String(props.stock.onHand));
  const id = `stock-${props.stock.warehouseId}`;
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        void props.onSave(Number(value));
      }}
    >
      <label for={id}>{t('onHandAt', { warehouse: props.stock.warehouseId })}</label>
      <input id={id} type="number" min={0} step={1} value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      <button type="submit">{t('save')}</button>
    </form>
  );
}
