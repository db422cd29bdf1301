import type { WebhookEvent } from '../payments/webhook-event';

export interface PickupPoint {
  id: string;
  name: string;
  street: string;
  city: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  openingHours: string;
}

export interface ParcelAddress {
  name?: string;
  street?: string;
  houseNumber?: string;
  city?: string;
  postalCode?: string;
  country?: string;
  pickupPointId?: string;
}

export interface ParcelPackage {
  weightGrams?: number;
  lengthCm?: number;
  widthCm?: number;
  heightCm?: number;
}

export interface RateRequest {
  fromCountry: string;
  toCountry: string;
  weightGrams: number;
  currency: string;
}

export interface Rate {
  service: 'STANDARD' | 'EXPRESS';
  /** Integer minor units of `currency`. */
  amount: number;
  currency: string;
  estimatedDays: number;
}

export enum ParcelStatus {
  BOOKED = 'BOOKED',
  PICKED_UP = 'PICKED_UP',
  DELIVERED = 'DELIVERED',
}

export interface ParcelRequest {
  /** Our reference (the order id); booking twice with one reference gives the same parcel. */
  reference: string;
  address: ParcelAddress;
  package?: ParcelPackage;
}

export interface Parcel {
  id: string;
  reference: string;
  trackingNumber: string;
  status: ParcelStatus;
  address: ParcelAddress;
  package: ParcelPackage;
  history: { status: ParcelStatus; at: string }[];
}

/**
 * A logistics provider (DESIGN §8): pickup points, rates and parcels. The sandbox is built in; tracking updates
 * arrive as signed webhooks on `/api/v1/delivery/webhook` ({@link TrackingEvent}).
 */
export abstract class LogisticsProvider {
  /** Shown by `orderServiceImpl.activeLogisticsProvider()`. */
  abstract readonly name: string;
  abstract pickupPoints(country: string, postalCode?: string): Promise<PickupPoint[]>;
  abstract rates(request: RateRequest): Promise<Rate[]>;
  abstract bookParcel(request: ParcelRequest): Promise<Parcel>;
  abstract parcel(parcelId: string): Promise<Parcel>;
}

export enum TrackingEventType {
  PICKED_UP = 'parcel.picked_up',
  DELIVERED = 'parcel.delivered',
}

/** Body of a tracking webhook. */
export type TrackingEvent = WebhookEvent<
  TrackingEventType,
  { parcelId: string; reference: string; status: ParcelStatus; trackingNumber: string }
>;
