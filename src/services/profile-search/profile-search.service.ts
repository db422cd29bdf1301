import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage, Types } from 'mongoose';
import { Profile, ProfileType } from '../../auth/profiles/profile.schema';
import { PUBLIC_PROFILE_PROJECTION, PublicProfile, toPublicProfile } from '../../auth/profiles/public-profile.view';
import { Bean, Exposed } from '../../bean';
import { describeRepository, RepositoryDescription } from '../../common/mongo/repository-description';
import { Page, toPage } from '../../common/page';
import { Role } from '../../common/principal';
import {
  parseSearchRequest,
  planSearch,
  runSearch,
  runSearchWindow,
  SearchPlan,
  SearchSpec,
  toPipeline,
} from '../../common/search';

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

type StoredProfile = Profile & { _id: Types.ObjectId };

/** `profileSearchServiceImpl`: open to guests; returns public profile fields only (DESIGN §6 search requests). */
@Injectable()
@Bean('profileSearchServiceImpl', Role.GUEST)
export class ProfileSearchService {
  constructor(@InjectModel(Profile.name) private readonly profiles: Model<Profile>) {}

  @Exposed()
  getRepository(): Promise<RepositoryDescription> {
    return describeRepository('ProfileRepository', this.profiles);
  }

  @Exposed(['String'])
  getPaginationFilter(requestJson: string): PipelineStage[] {
    return toPipeline(this.plan(requestJson), PUBLIC_PROFILE_PROJECTION);
  }

  @Exposed(['String'])
  async searchProfiles(requestJson: string): Promise<PublicProfile[]> {
    const plan = this.plan(requestJson);
    return (await runSearchWindow<StoredProfile>(this.profiles, plan, PUBLIC_PROFILE_PROJECTION)).map(toPublicProfile);
  }

  @Exposed(['String'])
  async searchProfilesPaged(requestJson: string): Promise<Page<PublicProfile>> {
    const plan = this.plan(requestJson);
    const { content, total } = await this.search(plan);
    return toPage(content, total, plan.page, plan.limit);
  }

  private plan(requestJson: string): SearchPlan {
    return planSearch(parseSearchRequest(requestJson), PROFILE_SEARCH);
  }

  private async search(plan: SearchPlan): Promise<{ content: PublicProfile[]; total: number }> {
    const { content, total } = await runSearch<StoredProfile>(this.profiles, plan, PUBLIC_PROFILE_PROJECTION);
    return { content: content.map(toPublicProfile), total };
  }
}
