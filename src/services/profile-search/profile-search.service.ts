import { PipelineStage } from 'mongoose';
import { ProfileDirectory } from '../../auth/profiles/profile-directory';
import { ProfileType } from '../../auth/profiles/profile-type';
import { PUBLIC_PROFILE_PROJECTION, PublicProfile } from '../../auth/profiles/public-profile.view';
import { Bean, Exposed } from '../../bean';
import { RepositoryDescription } from '../../common/mongo/repository-description';
import { Page, toPage } from '../../common/page';
import { Role } from '../../common/principal';
import { parseSearchRequest, planSearch, SearchPlan, SearchSpec, toPipeline } from '../../common/search';

/**
 * Public fields only: searching or filtering on a private field (e-mail, phone) would let a guest probe it even
 * though the field is never returned.
 */
const PROFILE_SEARCH: SearchSpec = {
  searchableFields: ['displayName', 'city', 'about'],
  filterableFields: ['type', 'displayName', 'country', 'city', 'about', 'website'],
  defaultSort: { displayName: 1 },
  closedFields: { type: Object.values(ProfileType) },
};

/** `profileSearchServiceImpl`: open to guests; returns public profile fields only (DESIGN §6 search requests). */
@Bean('profileSearchServiceImpl', Role.GUEST)
export class ProfileSearchService {
  constructor(private readonly profiles: ProfileDirectory) {}

  @Exposed()
  async getRepository(): Promise<RepositoryDescription> {
    const { collection, count } = await this.profiles.size();
    return { repository: 'ProfileRepository', entity: 'Profile', collection, count };
  }

  @Exposed(['String'])
  getPaginationFilter(requestJson: string): PipelineStage[] {
    return toPipeline(this.plan(requestJson), PUBLIC_PROFILE_PROJECTION);
  }

  @Exposed(['String'])
  async searchProfiles(requestJson: string): Promise<PublicProfile[]> {
    const plan = this.plan(requestJson);
    return this.profiles.searchPublicWindow(plan);
  }

  @Exposed(['String'])
  async searchProfilesPaged(requestJson: string): Promise<Page<PublicProfile>> {
    const plan = this.plan(requestJson);
    const { content, total } = await this.profiles.searchPublic(plan);
    return toPage(content, total, plan.page, plan.limit);
  }

  private plan(requestJson: string): SearchPlan {
    return planSearch(parseSearchRequest(requestJson), PROFILE_SEARCH);
  }
}
