import { NotFoundException } from '@nestjs/common';
import { Bean, Exposed } from '../../bean';
import { Role } from '../../common/principal';
import { ContentQueries } from '../content/content-queries';

/** What visitors see of containers: published containers and their published, released articles only. */
@Bean('blogViewerServiceImpl', Role.GUEST)
export class BlogViewerService {
  constructor(private readonly queries: ContentQueries) {}

  /** Published articles containing `regexFilter` (matched as literal text, ignoring case). */
  @Exposed(['String'])
  getArticles(regexFilter: string): Promise<Record<string, unknown>[]> {
    return this.queries.findArticles(regexFilter, 'visitor');
  }

  @Exposed(['String'])
  getContainerArticles(blogId: string): Promise<Record<string, string>[]> {
    return this.queries.containerArticles(blogId, 'visitor');
  }

  /** @param size how many, 1 to 50 (a string, as the spec declares it) */
  @Exposed(['String', 'String'])
  getRelatedBlogs(blogId: string, size: string): Promise<Record<string, unknown>[]> {
    return this.queries.related(blogId, size, 'visitor');
  }

  /** False for a container that does not exist or is not published, as visitors cannot tell the two apart. */
  @Exposed(['String', 'String'])
  async isContainerTypeEqualsTo(containerId: string, type: string): Promise<boolean> {
    try {
      return (await this.queries.container(containerId, 'visitor')).type === type;
    } catch (error) {
      if (error instanceof NotFoundException) return false;
      throw error;
    }
  }
}
