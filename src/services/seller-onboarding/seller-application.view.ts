import { Types } from 'mongoose';
import { ApplicantCompany, ApplicationStatus, SellerApplication } from './seller-application.schema';

export type StoredApplication = SellerApplication & { _id: Types.ObjectId; createdAt?: Date };

/** An application as its applicant and the operators see it. */
export interface SellerApplicationView {
  id: string;
  userId: string;
  username: string;
  company: ApplicantCompany;
  status: ApplicationStatus;
  reason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  sellerId: string | null;
  profileId: string | null;
  createdAt: string | null;
}

export function toApplicationView(application: StoredApplication): SellerApplicationView {
  const { company } = application;
  return {
    id: String(application._id),
    userId: application.userId,
    username: application.username,
    company: {
      name: company.name,
      street: company.street,
      postalCode: company.postalCode,
      city: company.city,
      country: company.country,
      vatId: company.vatId,
      ...(company.email ? { email: company.email } : {}),
    },
    status: application.status,
    reason: application.reason ?? null,
    decidedBy: application.decidedBy ?? null,
    decidedAt: application.decidedAt?.toISOString() ?? null,
    sellerId: application.sellerId ?? null,
    profileId: application.profileId ?? null,
    createdAt: application.createdAt?.toISOString() ?? null,
  };
}
