import type { OrderView } from '@ccb/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../context';
import { formatDate, formatMoney } from './money';

export const ORDER_STATUSES = [
  'NEW',
  'APPROVED',
  'PAYMENT_PENDING',
  'PAYMENT_FAILED',
  'PAID',
  'SHIPPED',
  'DELIVERED',
  'CANCELED',
  'REFUNDED',
] as const;
const PAGE_SIZE = 20;

/** Every order (ADMIN), newest first, filtered by status; one opens with its items and its timeline. */
export function Orders() {
  const { api, t, lang } = useConsole();
  const [status, setStatus] = useState('');
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  const [problem, setProblem] = useState('');
  const [open, setOpen] = useState<OrderView | null>(null);

  async function load() {
    setProblem('');
    const request = { query: status ? { status } : {}, page: 0, limit: PAGE_SIZE };
    try {
      setOrders((await api.client.beans.orderServiceImpl.getOrdersPaged(JSON.stringify(request))).content);
    } catch (error) {
      setProblem(String((error as Error).message));
    }
  }
  useEffect(() => void load(), [status, api]);

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">{t('navOrders')}</h2>
      <div class="inline">
        <label for="order-status">{t('filterStatus')}</label>
        <select id="order-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">{t('all')}</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => void load()}>
          {t('refresh')}
        </button>
      </div>
      {problem ? <p role="alert">{problem}</p> : null}
      {orders === null ? <p>{t('loading')}</p> : null}
      {orders?.length === 0 ? <p>{t('notFound')}</p> : null}
      {orders && orders.length > 0 ? (
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">{t('navOrders')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('created')}</th>
                <th scope="col">{t('buyer')}</th>
                <th scope="col">{t('seller')}</th>
                <th scope="col">{t('filterStatus')}</th>
                <th scope="col">{t('total')}</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <td>
                    <button type="button" class="link" onClick={() => setOpen(order)}>
                      {formatDate(order.createdAt, lang)}
                      <span class="visually-hidden"> {order.id}</span>
                    </button>
                  </td>
                  <td>{order.embeddedBuyer?.username ?? '–'}</td>
                  <td>{order.embeddedVendor?.name ?? '–'}</td>
                  <td>{order.status}</td>
                  <td>{formatMoney(order.total, order.currencyCode, lang)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {open ? <OrderDetail order={open} /> : null}
    </section>
  );
}

function OrderDetail({ order }: { order: OrderView }) {
  const { t, lang } = useConsole();
  return (
    <article class="order-detail" aria-labelledby="order-heading">
      <h3 id="order-heading">{t('orderTitle', { id: order.id })}</h3>
      <ul>
        {order.commerceItems.map((item) => (
          <li key={item.id}>
            {item.quantity} × {item.name}
            {item.skuName ? ` (${item.skuName})` : ''}: {formatMoney(item.total, order.currencyCode, lang)}
          </li>
        ))}
      </ul>
      <h4>{t('timeline')}</h4>
      <ol class="timeline">
        {order.orderTimeLines.map((line) => (
          <li key={`${line.status}-${line.at}`}>
            <strong>{line.status}</strong> · {formatDate(line.at, lang)} · {line.by}
          </li>
        ))}
      </ol>
    </article>
  );
}
