import { ConflictException } from '@nestjs/common';
import { Bean, Exposed, MapOf } from '../../bean';
import { Role } from '../../common/principal';
import { RequestContext } from '../../common/request-context';
import { JobRunner } from '../jobs/job-runner';
import { LeaseLocks } from '../jobs/lease-locks';
import { buildSitemaps } from './sitemap-builder';
import { SitemapFileStore } from './sitemap-files';
import { SitemapSources } from './sitemap-sources';
import { SitemapRequestDto } from './sitemap.dto';

const ROUTES_PER_STEP = 1000;

/**
 * Generates each site's sitemap from its published routes, as a job clients can follow on `/topic/job/{id}`.
 * "In progress" is a lock in the database ({@link LeaseLocks}), so one generation per site runs across instances.
 */
@Bean('sitemapGeneratorServiceImpl', Role.ADMIN)
export class SitemapGeneratorService {
  constructor(
    private readonly sources: SitemapSources,
    private readonly files: SitemapFileStore,
    private readonly jobs: JobRunner,
    private readonly locks: LeaseLocks,
  ) {}

  /** Starts the generation for the current site and returns; a generation already running there is a 409. */
  @Exposed([MapOf(SitemapRequestDto)])
  async generateSiteMap(request: SitemapRequestDto): Promise<void> {
    const site = RequestContext.current().site;
    const lock = await this.locks.tryAcquire(lockName(site));
    if (!lock) throw new ConflictException(`A sitemap of site "${site}" is being generated`);
    try {
      const routes = await this.sources.routesOf(site, request);
      const { finished } = await this.jobs.start(
        'sitemap',
        Math.ceil(routes.length / ROUTES_PER_STEP) + 1,
        async (job) => {
          const entries = [];
          for (let start = 0; start < routes.length; start += ROUTES_PER_STEP) {
            entries.push(
              ...(await this.sources.entries(site, routes.slice(start, start + ROUTES_PER_STEP), request.sitePrefix)),
            );
            await job.step();
          }
          entries.push(...(await this.sources.productEntries(request)));
          await this.files.save(site, await buildSitemaps(entries, request.urlPrefix));
          await job.step();
        },
      );
      void finished.finally(() => lock.release());
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Whether a sitemap of the current site is being generated, on any instance. */
  @Exposed()
  async isWorkInProgress(): Promise<boolean> {
    return this.locks.isHeld(lockName(RequestContext.current().site));
  }
}

function lockName(site: string): string {
  return `sitemap:${site}`;
}
