import { ConflictException, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isValidObjectId, Model } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { ApplicantCompany, ApplicationStatus, SellerApplication } from './seller-application.schema';
import { StoredApplication } from './seller-application.view';

/** The only writer of `seller_applications`; a decision is taken once (a pending application is claimed atomically). */
@Injectable()
export class SellerApplications implements OnModuleInit {
  constructor(@InjectModel(SellerApplication.name) private readonly applications: Model<SellerApplication>) {}

  /** Waits for the one-pending-per-user index, so that no application can race its creation. */
  async onModuleInit(): Promise<void> {
    await this.applications.init();
  }

  /** @throws ConflictException when the user has an application pending already */
  async submit(userId: string, username: string, company: ApplicantCompany): Promise<StoredApplication> {
    try {
      const created = await this.applications.create({ userId, username, company });
      return created.toObject<StoredApplication>();
    } catch (error: unknown) {
      if (isDuplicateKeyError(error)) throw new ConflictException('You have a seller application pending already');
      throw error;
    }
  }

  /** Null for a malformed or unknown id. */
  async find(id: string): Promise<StoredApplication | null> {
    if (!isValidObjectId(id)) return null;
    return this.applications.findById(String(id)).lean<StoredApplication>().exec();
  }

  ofUser(userId: string): Promise<StoredApplication[]> {
    return this.applications.find({ userId }).sort({ createdAt: -1 }).lean<StoredApplication[]>().exec();
  }

  async page(status: ApplicationStatus | undefined, page: number, size: number) {
    const query = status ? { status } : {};
    const [content, total] = await Promise.all([
      this.applications
        .find(query)
        .sort({ createdAt: 1, _id: 1 })
        .skip(page * size)
        .limit(size)
        .lean<StoredApplication[]>()
        .exec(),
      status ? this.applications.countDocuments(query).exec() : this.applications.estimatedDocumentCount().exec(),
    ]);
    return { content, total };
  }

  /** Takes a pending application's decision; null when it is not pending (any more). */
  decide(
    id: string,
    decision: { status: ApplicationStatus; decidedBy: string; reason?: string },
  ): Promise<StoredApplication | null> {
    return this.applications
      .findOneAndUpdate(
        { _id: id, status: ApplicationStatus.PENDING },
        { $set: { ...decision, decidedAt: new Date() } },
        { returnDocument: 'after' },
      )
      .lean<StoredApplication>()
      .exec();
  }

  /** Records what an approval made. */
  async linkSeller(id: string, sellerId: string, profileId: string): Promise<StoredApplication | null> {
    return this.applications
      .findOneAndUpdate({ _id: id }, { $set: { sellerId, profileId } }, { returnDocument: 'after' })
      .lean<StoredApplication>()
      .exec();
  }

  /** Puts an approval that could not be carried out back into the queue. */
  async reopen(id: string): Promise<void> {
    await this.applications
      .updateOne({ _id: id }, { $set: { status: ApplicationStatus.PENDING }, $unset: { decidedBy: 1, decidedAt: 1 } })
      .exec();
  }
}
