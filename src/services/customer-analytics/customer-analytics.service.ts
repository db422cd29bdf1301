import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { ProfileDirectory } from '../../auth/profiles/profile-directory';
import { ProfileType } from '../../auth/profiles/profile-type';
import { UserAccounts } from '../../auth/users/user-accounts';
import { Bean, Exposed } from '../../bean';
import { Page, toPage } from '../../common/page';
import { Role } from '../../common/principal';
import { parseSearchRequest, planSearch, runSearch, SearchSpec } from '../../common/search';
import { CustomerActivity, CustomerActivityType } from './customer-activity.schema';
import { CustomerActivityView, StoredActivity, toActivityView } from './customer-activity.view';
import { ChartData, monthLabels, monthlyChart, startOfMonthUtc } from './monthly-chart';

const CHART_MONTHS = 12;

/** Profiles of businesses (as opposed to buyers' profiles): what "registered companies" counts. */
const COMPANY_TYPES: readonly ProfileType[] = [ProfileType.COMPANY, ProfileType.SELLER];

/** Key of the companies whose profile names no country. */
export const UNKNOWN_COUNTRY = 'UNKNOWN';

const ACTIVITY_SEARCH: SearchSpec = {
  searchableFields: ['customerId', 'type'],
  filterableFields: ['customerId', 'type', 'at'],
  defaultSort: { at: -1 },
  closedFields: { type: Object.values(CustomerActivityType) },
  idFields: ['customerId'],
};

interface Bucket {
  _id: string;
  count: number;
}

/** Who the customers are and what they do; every figure is computed by the database with aggregation. */
@Bean('customerAnalyticsServiceImpl', Role.ADMIN)
export class CustomerAnalyticsService {
  constructor(
    @InjectModel(CustomerActivity.name) private readonly activities: Model<CustomerActivity>,
    private readonly users: UserAccounts,
    private readonly profiles: ProfileDirectory,
  ) {}

  /** Activities matching the search request (DESIGN §6), newest first unless it sorts otherwise. */
  @Exposed(['Map'])
  async getCustomerActivity(request: Record<string, unknown>): Promise<Page<CustomerActivityView>> {
    const plan = planSearch(parseSearchRequest(request), ACTIVITY_SEARCH);
    const { content, total } = await runSearch<StoredActivity>(this.activities, plan);
    return toPage(content.map(toActivityView), total, plan.page, plan.limit);
  }

  /** Customers (USER accounts) registered in each of the last 12 months, the current one included (UTC). */
  @Exposed()
  async getRegisteredCustomersChart(): Promise<ChartData> {
    const now = new Date();
    const since = startOfMonthUtc(now, CHART_MONTHS - 1);
    const month = { $dateToString: { format: '%Y-%m', date: '$createdAt' } };
    const buckets = await this.users.countCreatedSince(Role.USER, since, month);
    return monthlyChart('Registered customers', monthLabels(now, CHART_MONTHS), new Map(buckets.map(toEntry)));
  }

  /** Companies per ISO country code; those without a country under {@link UNKNOWN_COUNTRY}. */
  @Exposed()
  async getRegisteredCompaniesByCountry(): Promise<Record<string, number>> {
    const country = { $ifNull: ['$country', UNKNOWN_COUNTRY] };
    const buckets = await this.profiles.countBy(COMPANY_TYPES, country);
    return Object.fromEntries(buckets.map(toEntry));
  }

  /** Companies per profile type (COMPANY, SELLER). */
  @Exposed()
  async getRegisteredCompaniesByType(): Promise<Record<string, number>> {
    const buckets = await this.profiles.countBy(COMPANY_TYPES, '$type');
    return Object.fromEntries(buckets.map(toEntry));
  }
}

function toEntry(bucket: Bucket): [string, number] {
  return [bucket._id, bucket.count];
}
