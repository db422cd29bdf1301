import { BadRequestException, NotFoundException } from '@nestjs/common';
import { AuditTrail } from '../../audit/audit-trail';
import { Bean, Exposed, MapOf } from '../../bean';
import { Role } from '../../common/principal';
import { BankAccountDto, CardAccountDto, VerificationDto } from './connect-account.dto';
import { BUSINESS_STRUCTURES, BUSINESS_TYPES, MERCHANT_CATEGORY_CODES } from './business-catalogue';
import { ConnectAccountStore } from './connect-account-store';
import { ConnectAccountDTO, requirementsOf, statusOf, toConnectAccountDto } from './connect-account.view';
import { ExternalAccount } from './connect-account.schema';
import { ConnectOwner, ConnectOwners } from './connect-owner';
import { DEBIT_TEST_CARDS } from './debit-test-cards';
import { ConnectPersonDTO, InitialPerson } from './initial-person';
import { httpUrl, OnboardingLinks } from './onboarding-links';

/**
 * `cardConnectServiceMock`: connect accounts of sellers with the card provider's sandbox. Argument-less methods act
 * on the logged-in user's account (see `ConnectOwners`). The spec's methods need ADMIN; beside them, the `MySeller`
 * methods (USER) let a seller set up the payout account of the seller it acts for, and no other (404 for a user who
 * acts for no seller).
 */
@Bean('cardConnectServiceMock', Role.ADMIN)
export class CardConnectService {
  constructor(
    private readonly owners: ConnectOwners,
    private readonly store: ConnectAccountStore,
    private readonly links: OnboardingLinks,
    private readonly person: InitialPerson,
    private readonly audit: AuditTrail,
  ) {}

  /** `NOT_CONNECTED`, `PENDING` (requirements missing) or `ENABLED`. */
  @Exposed()
  async checkConnectAccountStatus(): Promise<string> {
    return statusOf(await this.store.find(await this.owners.current()));
  }

  @Exposed([], { role: Role.USER })
  async checkMySellerAccountStatus(): Promise<string> {
    return statusOf(await this.store.find(await this.owners.currentSeller()));
  }

  @Exposed(['String'])
  async deleteAccount(sellerId: string): Promise<void> {
    if (!(await this.store.deleteOfSeller(sellerId))) {
      throw new NotFoundException(`Seller ${sellerId} has no connect account`);
    }
    await this.audit.record({ action: 'connect-account.delete', target: { type: 'seller', id: sellerId } });
  }

  @Exposed()
  async getInitialPerson(): Promise<ConnectPersonDTO> {
    return this.person.of(await this.owners.current());
  }

  @Exposed([], { role: Role.USER })
  async getMySellerInitialPerson(): Promise<ConnectPersonDTO> {
    return this.person.of(await this.owners.currentSeller());
  }

  @Exposed([MapOf(BankAccountDto)])
  async createExternalBankAccount(bank: BankAccountDto): Promise<boolean> {
    return this.addExternalAccount(await this.owners.current(), bankAccount(bank));
  }

  @Exposed([MapOf(BankAccountDto)], { role: Role.USER })
  async createMySellerBankAccount(bank: BankAccountDto): Promise<boolean> {
    return this.addExternalAccount(await this.owners.currentSeller(), bankAccount(bank));
  }

  /** `false` when the sandbox refuses a valid number that is not one of its debit test cards. */
  @Exposed([MapOf(CardAccountDto)])
  async createExternalCardAccount(card: CardAccountDto): Promise<boolean> {
    return this.addCard(await this.owners.current(), card);
  }

  /** As `createExternalCardAccount`, for the caller's seller. */
  @Exposed([MapOf(CardAccountDto)], { role: Role.USER })
  async createMySellerCardAccount(card: CardAccountDto): Promise<boolean> {
    return this.addCard(await this.owners.currentSeller(), card);
  }

  @Exposed()
  getBusinessTypes(): string[] {
    return [...BUSINESS_TYPES];
  }

  /** An unknown business type is a 400: it is a caller's mistake, not an empty answer. */
  @Exposed(['String'])
  getBusinessStructures(businessType: string): string[] {
    const structures = Object.hasOwn(BUSINESS_STRUCTURES, businessType) ? BUSINESS_STRUCTURES[businessType] : undefined;
    if (!structures) {
      throw new BadRequestException(`Unknown business type ${businessType}; known: ${BUSINESS_TYPES.join(', ')}`);
    }
    return [...structures];
  }

  @Exposed()
  getMCCs(): Record<string, string> {
    return { ...MERCHANT_CATEGORY_CODES };
  }

  @Exposed(['String', 'String'])
  async obtainConnectOnboardingLink(refreshUrl: string, returnUrl: string): Promise<string> {
    return (await this.links.create(await this.owners.current(), refreshUrl, returnUrl)).url;
  }

  @Exposed(['String', 'String'], { role: Role.USER })
  async obtainMySellerOnboardingLink(refreshUrl: string, returnUrl: string): Promise<string> {
    return (await this.links.create(await this.owners.currentSeller(), refreshUrl, returnUrl)).url;
  }

  /** Records the business profile; while requirements remain, the answer carries a fresh onboarding link. */
  @Exposed(['String', 'String', MapOf(VerificationDto)])
  async verifyAccount(refreshUrl: string, returnUrl: string, meta: VerificationDto): Promise<ConnectAccountDTO> {
    checkVerification(refreshUrl, returnUrl, meta);
    return this.verify(await this.owners.current(), refreshUrl, returnUrl, meta);
  }

  /** As `verifyAccount`, for the caller's seller. */
  @Exposed(['String', 'String', MapOf(VerificationDto)], { role: Role.USER })
  async verifyMySellerAccount(
    refreshUrl: string,
    returnUrl: string,
    meta: VerificationDto,
  ): Promise<ConnectAccountDTO> {
    checkVerification(refreshUrl, returnUrl, meta);
    return this.verify(await this.owners.currentSeller(), refreshUrl, returnUrl, meta);
  }

  private async verify(
    owner: ConnectOwner,
    refreshUrl: string,
    returnUrl: string,
    meta: VerificationDto,
  ): Promise<ConnectAccountDTO> {
    const { businessType, businessStructure, mcc, country, email, website } = meta;
    const profile = { businessType, businessStructure, mcc, country, email, website };
    const account = await this.store.upsert(owner, { $set: profile });
    await this.record(owner, 'connect-account.verify', { businessType, businessStructure, mcc, country });
    if (requirementsOf(account).length === 0) return toConnectAccountDto(account, null);
    const link = await this.links.create(owner, refreshUrl, returnUrl);
    return toConnectAccountDto(link.account, link.url);
  }

  private async addCard(owner: ConnectOwner, card: CardAccountDto): Promise<boolean> {
    const brand = DEBIT_TEST_CARDS.get(card.number);
    if (!brand || isExpired(card.expMonth, card.expYear)) return false;
    const { number, holderName, currency } = card;
    return this.addExternalAccount(owner, { type: 'card', last4: number.slice(-4), holderName, currency, brand });
  }

  private async addExternalAccount(owner: ConnectOwner, external: ExternalAccount): Promise<boolean> {
    await this.store.upsert(owner, { $push: { externalAccounts: external } });
    const { type, last4, currency, brand } = external;
    await this.record(owner, 'connect-account.add-external-account', { type, last4, currency, brand });
    return true;
  }

  /** Every change of a connect account, by the seller's user or an ADMIN, under the seller (else the user) it is of. */
  private record(owner: ConnectOwner, action: string, details: Record<string, unknown>): Promise<void> {
    const target = owner.sellerId ? { type: 'seller', id: owner.sellerId } : { type: 'user', id: owner.userId };
    return this.audit.record({ action, target, details });
  }
}

function bankAccount(bank: BankAccountDto): ExternalAccount {
  return {
    type: 'bank_account',
    last4: bank.iban.slice(-4),
    holderName: bank.accountHolderName,
    currency: bank.currency,
    country: bank.iban.slice(0, 2),
  };
}

/** Checked before the profile is stored, although a link is only made while requirements remain. */
function checkVerification(refreshUrl: string, returnUrl: string, meta: VerificationDto): void {
  httpUrl(refreshUrl, 'refreshUrl');
  httpUrl(returnUrl, 'returnUrl');
  checkStructure(meta);
}

function checkStructure({ businessType, businessStructure }: VerificationDto): void {
  if (businessStructure !== undefined && !BUSINESS_STRUCTURES[businessType]?.includes(businessStructure)) {
    throw new BadRequestException(`businessStructure ${businessStructure} is not one of business type ${businessType}`);
  }
}

function isExpired(month: number, year: number): boolean {
  const now = new Date();
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}
