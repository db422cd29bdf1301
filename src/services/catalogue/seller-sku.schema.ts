import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { HydratedDocument, SchemaTypes, Types } from 'mongoose';
import { keepsStorefrontIndex, namedProduct } from './storefront-index.hooks';

/** Units on hand at one of the seller's warehouses (a shipping address of the seller). */
@Schema({ _id: false })
export class WarehouseStock {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Address', required: true }) warehouse!: Types.ObjectId;
  @Prop({ required: true, min: 0, validate: Number.isInteger }) onHand!: number;
}
export const WarehouseStockSchema = SchemaFactory.createForClass(WarehouseStock);

/**
 * A seller's offer of one SKU: its price and its stock. `quantity` is what can be sold now; `reserved` what orders
 * took and have not shipped; once the seller keeps stock per warehouse, `quantity + reserved` equals the sum of
 * `stockByWarehouse[].onHand` after every write (see the README, "Offers and stock").
 */
@Schema({ collection: 'seller_skus', timestamps: true })
export class SellerSku {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Seller', required: true, index: true }) seller!: Types.ObjectId;
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Sku', required: true, index: true }) sku!: Types.ObjectId;
  /** Denormalized from the SKU so facet aggregations reach the product in one lookup. */
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Product', required: true, index: true }) product!: Types.ObjectId;
  /** Integer minor units (cents) of `currency` (DESIGN §7). */
  @Prop({ required: true, min: 0, validate: Number.isInteger }) price!: number;
  /** ISO 4217 code. */
  @Prop({ required: true, uppercase: true }) currency!: string;
  /** Available to sell now: checkouts take from it. */
  @Prop({ required: true, min: 0, validate: Number.isInteger }) quantity!: number;
  /** Units taken by orders that have not shipped (unpaid or unshipped); they are still on hand. */
  @Prop({ default: 0, min: 0, validate: Number.isInteger }) reserved!: number;
  /** An inactive offer is not for sale: carts and checkouts refuse it, the storefront leaves it out. */
  @Prop({ default: true }) active!: boolean;
  /** Empty until the seller first sets stock at a warehouse; until then `quantity` is one undistributed figure. */
  @Prop({ type: [WarehouseStockSchema], default: [] }) stockByWarehouse!: WarehouseStock[];
}

export type SellerSkuDocument = HydratedDocument<SellerSku>;
export const SellerSkuSchema = SchemaFactory.createForClass(SellerSku);
/**
 * An offer's own figures: a write of these alone (stock edits, checkouts, a price or an activation) refreshes its
 * product's storefront entries from the stored entry and the product's offers, without reading the product, its
 * SKUs and sellers again (`StorefrontIndexer.refreshOffers`); `updatedAt` comes with every update (timestamps).
 */
const OWN_FIELDS = new Set(['quantity', 'reserved', 'stockByWarehouse', 'price', 'currency', 'active', 'updatedAt']);
keepsStorefrontIndex(SellerSkuSchema, namedProduct('seller_skus'), { ownFields: OWN_FIELDS });
SellerSkuSchema.index({ seller: 1, sku: 1 }, { unique: true });
/** In-stock offers (`quantity > 0`), the base of every storefront filter. */
SellerSkuSchema.index({ quantity: 1 });
/** A product's offers in stock, cheapest first: the storefront listing's and detail's join (`product` leads). */
SellerSkuSchema.index({ product: 1, quantity: 1, price: 1 });
