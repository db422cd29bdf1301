import { SearchSpec } from '../../common/search';
import { OrderStatus } from './order-status';

/** What `getOrders`, `getOrdersPaged` and `getPaginationFilter` may search, filter and sort on (DESIGN §6). */
export const ORDER_SEARCH: SearchSpec = {
  searchableFields: ['embeddedBuyer.username', 'embeddedVendor.name', 'commerceItems.name', 'status'],
  filterableFields: [
    ...['status', 'currencyCode', 'digital', 'total', 'createdAt', 'updatedAt'],
    ...['embeddedBuyer.userId', 'embeddedBuyer.username', 'embeddedVendor.sellerId', 'embeddedVendor.name'],
    ...['paymentIntentId', 'parcelId', 'payoutId'],
  ],
  defaultSort: { createdAt: -1 },
  closedFields: { status: Object.values(OrderStatus) },
  idFields: ['embeddedBuyer.userId', 'embeddedVendor.sellerId'],
};
