import { Types } from 'mongoose';
import { demoId } from './demo-id';

/** One shipping (warehouse) address per demo seller country. */
type Warehouse = { street: string; houseNumber: string; city: string; postalCode: string };

export const DEMO_WAREHOUSES: Record<string, Warehouse> = {
  NL: { street: 'Kwekerijweg', houseNumber: '12', city: 'Boskoop', postalCode: '2771 AB' },
  FR: { street: 'Rue des Serres', houseNumber: '4', city: 'Angers', postalCode: '49000' },
  JP: { street: 'Omiya Bonsai-cho', houseNumber: '2-24', city: 'Saitama', postalCode: '331-0805' },
  US: { street: 'Prairie Road', houseNumber: '1800', city: 'Portland', postalCode: '97201' },
};

/** The id of a demo seller's warehouse (its one shipping address), where its demo offers keep their stock. */
export function demoWarehouseId(sellerUsername: string): Types.ObjectId {
  return demoId(`address:${sellerUsername}`);
}
