import { BadRequestException, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { LRUCache } from 'lru-cache';
import { Model, PipelineStage } from 'mongoose';
import { isDuplicateKeyError } from '../../common/mongo/duplicate-key';
import { Page, toPage } from '../../common/page';
import { RequestContext } from '../../common/request-context';
import { parseSearchRequest, planSearch, SearchPlan, toPagePipeline, toPipeline } from '../../common/search';
import {
  buildCountryRecords,
  countryLanguage,
  CountryRecord,
  datasetVersion,
  resolveCountryCode,
} from './country-dataset';
import { Country } from './country.schema';
import { CountryView, toCountryView } from './country.view';

const SEARCH_FIELDS = ['code', 'alpha3', 'numeric', 'name'];
/** Distinct searches whose results are kept; each is a few KB at most (a page, or the dataset's 250 countries). */
const KEPT_SEARCHES = 1_000;

/**
 * Countries from the ISO 3166 dataset. Lookups are answered from memory (the dataset is static); searches run
 * as an aggregation over the `countries` collection so `getPaginationFilter` shows the real pipeline, and their
 * results are kept by request and language (the collection changes only when a new dataset version starts with the
 * process), so a repeated search costs no round trip. Kept results are shared: callers must not change them.
 */
@Injectable()
export class CountryDirectory implements OnModuleInit {
  private readonly records = buildCountryRecords();
  private readonly byCode = new Map(this.records.map((record) => [record.code, record]));
  private readonly sortedByLanguage = new Map<string, CountryView[]>();
  private readonly searches = new LRUCache<string, CountryView[] | Page<CountryView>>({ max: KEPT_SEARCHES });

  constructor(@InjectModel(Country.name) private readonly countries: Model<Country>) {}

  /** Writes the dataset unless this very version is stored already (a dependency update changes names). */
  async onModuleInit(): Promise<void> {
    const version = datasetVersion(this.records);
    if ((await this.countries.countDocuments({ version })) === this.records.length) return;
    await this.countries.deleteMany({});
    try {
      await this.countries.insertMany(
        this.records.map((record) => ({ ...record, version })),
        { ordered: false },
      );
    } catch (error) {
      // Another instance starting at the same time wrote the same records.
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /** Sorted by name in the request language; computed once per language (the dataset is static). */
  list(): CountryView[] {
    const lang = this.language();
    let sorted = this.sortedByLanguage.get(lang);
    if (!sorted) {
      const collator = new Intl.Collator(lang);
      const views = this.records.map((record) => toCountryView(record, lang));
      sorted = views.sort((a, b) => collator.compare(a.name, b.name));
      this.sortedByLanguage.set(lang, sorted);
    }
    return sorted;
  }

  /** @throws 400 for a blank code, 404 for an unknown one. */
  get(code: string): CountryView {
    return toCountryView(this.record(code), this.language());
  }

  /** The alpha-2 code of a country named by any code or by its name in the request language. */
  resolve(code: string): string {
    return this.record(code).code;
  }

  isKnown(code: string): boolean {
    return this.byCode.has(code.toUpperCase());
  }

  pipeline(requestJson: string): PipelineStage[] {
    return this.searchPipeline(this.plan(requestJson));
  }

  search(requestJson: string): Promise<CountryView[]> {
    return this.kept('list', requestJson, () =>
      this.countries
        .aggregate<CountryView>(this.searchPipeline(this.plan(requestJson)))
        .collation(this.collation())
        .exec(),
    );
  }

  searchPaged(requestJson: string): Promise<Page<CountryView>> {
    return this.kept('page', requestJson, async () => {
      const plan = this.plan(requestJson);
      const [page] = await this.countries
        .aggregate<{ content: CountryView[]; total: { total: number }[] }>([
          ...this.localize(),
          ...toPagePipeline(plan),
        ])
        .collation(this.collation())
        .exec();
      return toPage(page.content, page.total[0]?.total ?? 0, plan.page, plan.limit);
    });
  }

  /** The kept result of a search of `kind` for `requestJson` in the request language, else `compute`'s (kept). */
  private async kept<T extends CountryView[] | Page<CountryView>>(
    kind: 'list' | 'page',
    requestJson: string,
    compute: () => Promise<T>,
  ): Promise<T> {
    const key = `${kind}\u0000${this.language()}\u0000${requestJson}`;
    const found = this.searches.get(key) as T | undefined;
    if (found) return found;
    const result = await compute();
    this.searches.set(key, result);
    return result;
  }

  private plan(requestJson: string): SearchPlan {
    return planSearch(parseSearchRequest(requestJson), {
      searchableFields: ['name', 'code', 'alpha3'],
      filterableFields: SEARCH_FIELDS,
      defaultSort: { name: 1 },
    });
  }

  /** Names are projected into `name` in the request language first, so search and sort apply to them. */
  private searchPipeline(plan: SearchPlan): PipelineStage[] {
    return [...this.localize(), ...toPipeline(plan)];
  }

  private localize(): PipelineStage[] {
    const lang = this.language();
    return [{ $project: { _id: 0, id: '$code', code: 1, alpha3: 1, numeric: 1, name: `$names.${lang}` } }];
  }

  /**
   * Sorting follows the alphabet of the language the names are in (the request's, else English), as `list()` does:
   * by code points "Åland Islands" would come before "Afghanistan", and German "Ägypten" after "Zypern".
   */
  private collation(): { locale: string } {
    return { locale: this.language() };
  }

  private record(code: string): CountryRecord {
    if (code.trim() === '') throw new BadRequestException('A country code is required');
    const alpha2 = resolveCountryCode(code, this.language());
    const record = alpha2 ? this.byCode.get(alpha2) : undefined;
    if (!record) throw new NotFoundException(`Country "${code}" not found`);
    return record;
  }

  private language(): string {
    return countryLanguage(RequestContext.current().lang);
  }
}
