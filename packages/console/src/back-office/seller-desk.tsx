import type { OrderView } from '@ccb/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../context';
import { formatDate, formatMoney } from './money';

/**
 * The seller's own orders (a USER acting for a seller), newest first, refreshed as `/topic/seller/{id}/orders`
 * announces new, paid and canceled ones. The seller is found through the user's approved application.
 */
export function SellerDesk() {
  const { api, t, lang } = useConsole();
  const [sellerId, setSellerId] = useState<string | null | undefined>(undefined);
  const [orders, setOrders] = useState<OrderView[]>([]);
  const [problem, setProblem] = useState('');

  async function load() {
    const page = await api.client.beans.orderServiceImpl.getSellerOrdersPaged({});
    setOrders(page.content);
  }
  useEffect(() => {
    void api.client.beans.sellerOnboardingServiceImpl
      .getMySellerApplications()
      .then((applications) => setSellerId(applications.find((a) => a.sellerId)?.sellerId ?? null))
      .catch((error: Error) => setProblem(error.message));
  }, [api]);
  useEffect(() => {
    if (!sellerId) return;
    void load().catch((error: Error) => setProblem(error.message));
    const subscription = api.client.live.subscribe(`/topic/seller/${sellerId}/orders`, () => void load());
    return () =>
      void subscription.then(
        (s) => s.unsubscribe(),
        () => undefined,
      );
  }, [sellerId]);

  return (
    <section aria-labelledby="desk-heading">
      <h2 id="desk-heading">{t('navDesk')}</h2>
      {problem ? <p role="alert">{problem}</p> : null}
      {sellerId === null ? <p>{t('notASeller')}</p> : null}
      {sellerId && orders.length === 0 ? <p>{t('notFound')}</p> : null}
      <ol class="desk" aria-live="polite">
        {orders.map((order) => (
          <li key={order.id} data-order-id={order.id}>
            <strong>{order.status}</strong> · {formatDate(order.createdAt, lang)} · {order.embeddedBuyer?.username} ·{' '}
            {formatMoney(order.total, order.currencyCode, lang)} ·{' '}
            {order.commerceItems.map((item) => `${item.quantity} × ${item.name}`).join(', ')}
          </li>
        ))}
      </ol>
    </section>
  );
}
