import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { isDuplicateKeyError } from '../../../common/mongo/duplicate-key';
import {
  LogisticsProvider,
  Parcel,
  ParcelRequest,
  ParcelStatus,
  PickupPoint,
  Rate,
  RateRequest,
} from '../logistics.provider';
import { SandboxParcel } from './sandbox-parcel.schema';

const PICKUP_POINTS_PER_AREA = 3;
/** Domestic and international base prices (minor units) and the price per started kilogram. */
const BASE_PRICE = { domestic: 495, international: 1295 };
const PER_KG = 100;
/** Destinations the sandbox carrier does not serve (no rates): shows a route a real carrier lacks. */
export const SANDBOX_UNSERVED_COUNTRIES: readonly string[] = ['AQ'];

/** Scans a carrier makes, in order; a parcel only moves forward. */
const PREVIOUS: Partial<Record<ParcelStatus, ParcelStatus>> = {
  [ParcelStatus.PICKED_UP]: ParcelStatus.BOOKED,
  [ParcelStatus.DELIVERED]: ParcelStatus.PICKED_UP,
};

/** The built-in carrier: deterministic pickup points and rates, parcels kept in the database. */
@Injectable()
export class LogisticsSandbox extends LogisticsProvider {
  readonly name = 'logistics-sandbox';

  constructor(@InjectModel(SandboxParcel.name) private readonly parcels: Model<SandboxParcel>) {
    super();
  }

  async pickupPoints(country: string, postalCode = ''): Promise<PickupPoint[]> {
    const area = postalCode.replace(/\s/g, '').toUpperCase();
    return Array.from({ length: PICKUP_POINTS_PER_AREA }, (_, i) => ({
      id: `PP-${country}-${area || 'ANY'}-${i + 1}`,
      name: `Sandbox pickup point ${i + 1}`,
      street: `Station Street ${i + 1}`,
      city: 'Sandbox City',
      postalCode: area,
      country,
      openingHours: 'Mo-Sa 08:00-20:00',
    }));
  }

  async rates({ fromCountry, toCountry, weightGrams, currency }: RateRequest): Promise<Rate[]> {
    if ([fromCountry, toCountry].some((country) => SANDBOX_UNSERVED_COUNTRIES.includes(country))) return [];
    const base = fromCountry === toCountry ? BASE_PRICE.domestic : BASE_PRICE.international;
    const standard = base + PER_KG * Math.ceil(Math.max(weightGrams, 1) / 1000);
    const days = fromCountry === toCountry ? 2 : 5;
    return [
      { service: 'STANDARD', amount: standard, currency, estimatedDays: days },
      { service: 'EXPRESS', amount: standard * 2, currency, estimatedDays: Math.ceil(days / 2) },
    ];
  }

  async bookParcel(request: ParcelRequest): Promise<Parcel> {
    const reference = String(request.reference);
    const existing = await this.parcels.findOne({ reference }).lean().exec();
    if (existing) return toParcel(existing);
    try {
      const created = await this.parcels.create({
        parcelId: `par_${randomBytes(12).toString('hex')}`,
        reference,
        trackingNumber: `SBX${randomBytes(6).toString('hex').toUpperCase()}`,
        status: ParcelStatus.BOOKED,
        address: request.address,
        package: request.package ?? {},
        history: [{ status: ParcelStatus.BOOKED, at: new Date() }],
      });
      return toParcel(created);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.bookParcel(request);
    }
  }

  async parcel(parcelId: string): Promise<Parcel> {
    const parcel = await this.parcels
      .findOne({ parcelId: String(parcelId) })
      .lean()
      .exec();
    if (!parcel) throw new NotFoundException(`Parcel ${parcelId} not found`);
    return toParcel(parcel);
  }

  /** The carrier scans the parcel: it moves one step forward (409 otherwise). */
  async scan(parcelId: string, status: ParcelStatus): Promise<Parcel> {
    const previous = PREVIOUS[status];
    const scanned = previous
      ? await this.parcels
          .findOneAndUpdate(
            { parcelId: String(parcelId), status: previous },
            { $set: { status }, $push: { history: { status, at: new Date() } } },
            { returnDocument: 'after' },
          )
          .lean()
          .exec()
      : null;
    if (scanned) return toParcel(scanned);
    const parcel = await this.parcel(parcelId);
    throw new ConflictException(`Parcel ${parcel.id} is ${parcel.status}; it cannot be scanned as ${status}`);
  }
}

function toParcel(parcel: SandboxParcel): Parcel {
  return {
    id: parcel.parcelId,
    reference: parcel.reference,
    trackingNumber: parcel.trackingNumber,
    status: parcel.status,
    address: parcel.address,
    package: parcel.package,
    history: parcel.history.map(({ status, at }) => ({ status, at: at.toISOString() })),
  };
}
