import { ConnectAccount, ExternalAccount } from './connect-account.schema';

export enum ConnectAccountStatus {
  NOT_CONNECTED = 'NOT_CONNECTED',
  /** Created; `requirements` lists what is still missing. */
  PENDING = 'PENDING',
  /** Every requirement met: charges and payouts enabled. */
  ENABLED = 'ENABLED',
}

/** What `verifyAccount` answers. */
export interface ConnectAccountDTO {
  id: string;
  sellerId: string | null;
  status: ConnectAccountStatus;
  businessType: string | null;
  businessStructure: string | null;
  mcc: string | null;
  country: string | null;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  requirements: string[];
  externalAccounts: ExternalAccount[];
  /** Where the owner completes the missing requirements, when some remain. */
  onboardingUrl: string | null;
}

export type StoredConnectAccount = ConnectAccount & { _id: unknown };

export function requirementsOf(account: ConnectAccount): string[] {
  const missing: string[] = [];
  if (!account.businessType || !account.mcc) missing.push('business_profile');
  if (!account.termsAcceptedAt) missing.push('tos_acceptance');
  if (account.externalAccounts.length === 0) missing.push('external_account');
  return missing;
}

export function statusOf(account: ConnectAccount | null): ConnectAccountStatus {
  if (!account) return ConnectAccountStatus.NOT_CONNECTED;
  return requirementsOf(account).length === 0 ? ConnectAccountStatus.ENABLED : ConnectAccountStatus.PENDING;
}

export function toConnectAccountDto(account: StoredConnectAccount, onboardingUrl: string | null): ConnectAccountDTO {
  const requirements = requirementsOf(account);
  return {
    id: String(account._id),
    sellerId: account.sellerId ?? null,
    status: statusOf(account),
    businessType: account.businessType ?? null,
    businessStructure: account.businessStructure ?? null,
    mcc: account.mcc ?? null,
    country: account.country ?? null,
    chargesEnabled: !requirements.includes('business_profile') && !requirements.includes('tos_acceptance'),
    payoutsEnabled: requirements.length === 0,
    requirements,
    externalAccounts: account.externalAccounts.map(({ type, last4, holderName, currency, country, brand }) => ({
      type,
      last4,
      holderName,
      currency,
      country,
      brand,
    })),
    onboardingUrl: requirements.length > 0 ? onboardingUrl : null,
  };
}
