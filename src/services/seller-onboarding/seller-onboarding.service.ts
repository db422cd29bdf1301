import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { AuditTrail, SYSTEM_ACTOR } from '../../audit/audit-trail';
import { CompanyIdentity, ProfileDirectory } from '../../auth/profiles/profile-directory';
import { Bean, Exposed, MapOf } from '../../bean';
import { Page, toPage } from '../../common/page';
import { Principal, Role } from '../../common/principal';
import { AppConfig } from '../../config';
import { requireCaller } from '../catalogue/caller';
import { SellerDirectory } from '../catalogue/seller-directory';
import { CompanyProfileView, toCompanyProfileView } from './company-profile.view';
import { ApplicationSearchDto, CompanyProfileDto, SellerApplicationDto } from './seller-onboarding.dto';
import { SellerOnboardingTopic } from './seller-onboarding.topic';
import { ApplicantCompany, ApplicationStatus } from './seller-application.schema';
import { SellerApplicationView, StoredApplication, toApplicationView } from './seller-application.view';
import { SellerApplications } from './seller-applications';
import { checkVatId } from './vat-id';

const MAX_REASON_LENGTH = 500;
/** Who decides applications when `SELLER_ONBOARDING=open`. */
const OPEN_ONBOARDING = 'system';

/**
 * `sellerOnboardingServiceImpl`: a USER applies to sell, an ADMIN approves or rejects (or, with
 * `SELLER_ONBOARDING=open`, approval is immediate); approval makes the seller and its company profile, linked to
 * the applicant's account. The seller keeps its company profile (legal name, address, VAT id) up to date.
 */
@Bean('sellerOnboardingServiceImpl', Role.ADMIN)
export class SellerOnboardingService {
  constructor(
    private readonly applications: SellerApplications,
    private readonly sellers: SellerDirectory,
    private readonly profiles: ProfileDirectory,
    private readonly topic: SellerOnboardingTopic,
    private readonly config: AppConfig,
    private readonly audit: AuditTrail,
  ) {}

  /** 409 when the caller is a seller already or has an application pending. */
  @Exposed([MapOf(SellerApplicationDto)], { role: Role.USER })
  async applyAsSeller(application: SellerApplicationDto): Promise<SellerApplicationView> {
    const caller = requireCaller();
    if (await this.sellers.idActingFor(caller.id)) throw new ConflictException('You are a seller already');
    const submitted = await this.applications.submit(caller.id, caller.username, companyOf(application));
    await this.audit.record({
      action: 'seller-application.submit',
      target: { type: 'seller-application', id: String(submitted._id) },
      details: { company: submitted.company },
    });
    this.topic.changed('submitted', toApplicationView(submitted));
    if (this.config.sellerOnboarding === 'open') return this.approve(String(submitted._id), OPEN_ONBOARDING);
    return toApplicationView(submitted);
  }

  /** The caller's applications, newest first, with their decisions. */
  @Exposed([], { role: Role.USER })
  async getMySellerApplications(): Promise<SellerApplicationView[]> {
    return (await this.applications.ofUser(requireCaller().id)).map(toApplicationView);
  }

  @Exposed([MapOf(ApplicationSearchDto)])
  async listSellerApplications(query: ApplicationSearchDto): Promise<Page<SellerApplicationView>> {
    const { content, total } = await this.applications.page(query.status, query.page, query.size);
    return toPage(content.map(toApplicationView), total, query.page, query.size);
  }

  /** 404 for an unknown application, 409 for one decided already. */
  @Exposed(['String'])
  async approveSellerApplication(applicationId: string): Promise<SellerApplicationView> {
    await this.pending(applicationId);
    return this.approve(applicationId, requireCaller().username);
  }

  /** `reason` (1-500 characters) is shown to the applicant. */
  @Exposed(['String', 'String'])
  async rejectSellerApplication(applicationId: string, reason: string): Promise<SellerApplicationView> {
    const why = reason.trim();
    if (why.length === 0 || why.length > MAX_REASON_LENGTH) {
      throw fieldProblem('reason', `reason must be 1-${MAX_REASON_LENGTH} characters`);
    }
    await this.pending(applicationId);
    const decision = { status: ApplicationStatus.REJECTED, decidedBy: requireCaller().username, reason: why };
    const rejected = await this.applications.decide(applicationId, decision);
    if (!rejected) throw notPending(applicationId);
    await this.audit.record({
      action: 'seller-application.reject',
      target: { type: 'seller-application', id: applicationId },
      details: { reason: why },
    });
    const view = toApplicationView(rejected);
    this.topic.changed('rejected', view);
    return view;
  }

  /** 404 for a caller who acts for no seller, or whose seller has no company profile. */
  @Exposed([], { role: Role.USER })
  async getMyCompanyProfile(): Promise<CompanyProfileView> {
    const { sellerId, profileId } = await this.ownSeller(requireCaller());
    const profile = profileId ? await this.profiles.findById(profileId) : null;
    if (!profile) throw new NotFoundException('Your seller has no company profile yet');
    return toCompanyProfileView(sellerId, profile);
  }

  /** Replaces the company profile (made here if the seller had none); the seller's name and country follow it. */
  @Exposed([MapOf(CompanyProfileDto)], { role: Role.USER })
  async updateMyCompanyProfile(company: CompanyProfileDto): Promise<CompanyProfileView> {
    const caller = requireCaller();
    const { sellerId, profileId } = await this.ownSeller(caller);
    const identity = identityOf(companyOf(company));
    const updated = profileId !== undefined && (await this.profiles.updateCompany(profileId, identity));
    const companyProfileId = updated ? profileId : await this.profiles.createCompany(caller.id, identity);
    await this.sellers.setCompany(sellerId, {
      name: identity.legalName,
      country: identity.country,
      profileId: companyProfileId,
    });
    await this.audit.record({
      action: updated ? 'company-profile.update' : 'company-profile.create',
      target: { type: 'profile', id: companyProfileId },
      details: { sellerId, ...identity },
    });
    return this.getMyCompanyProfile();
  }

  private async approve(applicationId: string, decidedBy: string): Promise<SellerApplicationView> {
    const claimed = await this.applications.decide(applicationId, { status: ApplicationStatus.APPROVED, decidedBy });
    if (!claimed) throw notPending(applicationId);
    let approved: StoredApplication | null;
    try {
      approved = await this.makeSeller(claimed);
    } catch (error: unknown) {
      await this.applications.reopen(applicationId);
      throw error;
    }
    const view = toApplicationView(approved ?? claimed);
    await this.recordApproval(view, decidedBy === OPEN_ONBOARDING);
    this.topic.changed('approved', view);
    return view;
  }

  /** The decision, and the seller it made (open onboarding: by the system). */
  private async recordApproval(application: SellerApplicationView, bySystem: boolean): Promise<void> {
    const actor = bySystem ? SYSTEM_ACTOR : undefined;
    const { id, sellerId, profileId, userId } = application;
    await this.audit.record({
      actor,
      action: 'seller-application.approve',
      target: { type: 'seller-application', id },
      details: { sellerId, profileId },
    });
    await this.audit.record({
      actor,
      action: 'seller.create',
      target: { type: 'seller', id: sellerId ?? '' },
      details: { applicationId: id, userId, profileId, name: application.company.name },
    });
  }

  /** The seller, linked to the applicant's account, and its company profile. */
  private async makeSeller(application: StoredApplication): Promise<StoredApplication | null> {
    const { userId, company } = application;
    if (await this.sellers.idActingFor(userId)) throw new ConflictException('The applicant is a seller already');
    const profileId = await this.profiles.createCompany(userId, identityOf(company));
    const sellerId = await this.sellers.create({ name: company.name, country: company.country, userId, profileId });
    return this.applications.linkSeller(String(application._id), sellerId, profileId);
  }

  private async pending(applicationId: string): Promise<StoredApplication> {
    const application = await this.applications.find(applicationId);
    if (!application) throw new NotFoundException(`Seller application ${applicationId} not found`);
    if (application.status !== ApplicationStatus.PENDING) throw notPending(applicationId);
    return application;
  }

  private async ownSeller(caller: Principal): Promise<{ sellerId: string; profileId?: string }> {
    const sellerId = await this.sellers.idActingFor(caller.id);
    if (!sellerId) throw new NotFoundException('You act for no seller');
    const seller = await this.sellers.get(String(sellerId));
    return { sellerId: String(sellerId), profileId: seller.profileId };
  }
}

/** The DTO's fields as stored, the VAT id in its normalized form (the DTO has checked it against the country). */
function companyOf({
  companyName,
  street,
  postalCode,
  city,
  country,
  vatId,
  email,
}: SellerApplicationDto): ApplicantCompany {
  const check = checkVatId(vatId, country);
  if (!check.valid) throw fieldProblem('vatId', check.problem);
  return { name: companyName, street, postalCode, city, country, vatId: check.vatId, email };
}

function identityOf({ name, street, postalCode, city, country, vatId, email }: ApplicantCompany): CompanyIdentity {
  return { legalName: name, street, postalCode, city, country, taxId: vatId, email };
}

function notPending(applicationId: string): ConflictException {
  return new ConflictException(`Seller application ${applicationId} is not pending`);
}

function fieldProblem(field: string, message: string): BadRequestException {
  return new BadRequestException({ message: 'Validation failed', details: [{ field, message }] });
}
