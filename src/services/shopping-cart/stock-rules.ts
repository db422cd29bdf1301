import { CartDocument } from './cart.schema';
import { OfferDetails } from '../catalogue/offer-catalog';
import { codedError } from '../../common/errors/coded-exception';

/**
 * A line may never hold more than the offer's stock. Asking for more is a 409, not a 400: the request is well
 * formed and would succeed with more stock; it conflicts with the current state of the offer.
 */
export function assertWithinStock(quantity: number, offer: OfferDetails): void {
  if (quantity > offer.quantity) {
    throw codedError(
      'OUT_OF_STOCK',
      `Only ${offer.quantity} of seller SKU ${String(offer._id)} in stock; the cart would hold ${quantity}`,
    );
  }
}

/**
 * Brings a cart back within stock after stock fell (sold elsewhere) or an offer was withdrawn: lines are cut to
 * the stock, lines with nothing left are removed. Returns whether anything changed.
 */
export function clampToStock(cart: CartDocument, offers: Map<string, OfferDetails>): boolean {
  let changed = false;
  for (const item of [...cart.items]) {
    const offer = offers.get(String(item.sellerSku));
    const available = offer?.product.published ? offer.quantity : 0;
    if (available <= 0) {
      cart.items.pull(item._id);
      changed = true;
    } else if (item.quantity > available) {
      item.quantity = available;
      changed = true;
    }
  }
  return changed;
}
