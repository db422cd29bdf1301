import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ReportRegistry } from '../../common/reports/report-registry';
import { ModelReport } from '../../common/reports/model-report';
import { column } from '../../common/reports/report-source';
import { Order } from './order.schema';
import { StoredOrder } from './order.view';

/** The `orders` report: every order, with its buyer's account and its seller (as they were when it was placed). */
@Injectable()
export class OrdersReport extends ModelReport<StoredOrder, Order> {
  readonly name = 'orders';
  readonly columns = [
    column<StoredOrder>('id', (order) => order._id),
    column<StoredOrder>('status', (order) => order.status),
    column<StoredOrder>('buyerId', (order) => order.embeddedBuyer.userId),
    column<StoredOrder>('buyer', (order) => order.embeddedBuyer.username),
    column<StoredOrder>('vendorId', (order) => order.embeddedVendor.sellerId),
    column<StoredOrder>('currencyCode', (order) => order.currencyCode),
    column<StoredOrder>('total', (order) => order.total),
    column<StoredOrder>('tax', (order) => order.tax),
    column<StoredOrder>('paymentMethodId', (order) => order.paymentMethodId),
    column<StoredOrder>('parcelId', (order) => order.parcelId),
    column<StoredOrder>('createdAt', (order) => order.createdAt),
    column<StoredOrder>('updatedAt', (order) => order.updatedAt),
  ];

  constructor(@InjectModel(Order.name) orders: Model<Order>, reports: ReportRegistry) {
    super(reports, orders);
  }
}
