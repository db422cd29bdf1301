import { BadRequestException, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, PipelineStage, Types } from 'mongoose';
import { Bean, Exposed, MapOf } from '../../bean';
import { toObjectId } from '../../common/mongo/object-id';
import { describeRepository, RepositoryDescription } from '../../common/mongo/repository-description';
import { Page, toPage } from '../../common/page';
import { Role } from '../../common/principal';
import { runSearch, runSearchWindow } from '../../common/search';
import { Article, ContentContainer } from '../content/container.schema';
import { ContentQueries } from '../content/content-queries';
import { ContainerView, Stored, toContainerView } from '../content/content-views';
import { pickDefined } from '../content/pick';
import { RouteRepository } from '../content/route.repository';
import { contentScope } from '../content/scope';
import { ArticleDto, ContainerDto } from './container.dto';
import { containerPipeline, planContainerSearch } from './container-search';

type StoredContainer = Stored<ContentContainer> & { articles: Stored<Article>[] };

/** Container types offered to editors; types in use by existing containers are listed too. */
export const CONTAINER_TYPES: Record<string, string> = {
  blog: 'Blog',
  news: 'News',
  faq: 'FAQ',
  gallery: 'Gallery',
  landing: 'Landing page',
};

/** Containers (blogs, news, ...) and their articles, in the current site and language. */
@Bean('contentContainerServiceImpl', Role.ADMIN)
export class ContentContainerService {
  constructor(
    @InjectModel(ContentContainer.name) private readonly containers: Model<ContentContainer>,
    private readonly routes: RouteRepository,
    private readonly queries: ContentQueries,
  ) {}

  /** A repository cannot travel as JSON; callers get what it holds for this site and language. */
  @Exposed()
  getRepository(): Promise<RepositoryDescription> {
    const count = () => this.containers.countDocuments(contentScope()).exec();
    return describeRepository('ContentContainerRepository', this.containers, { count });
  }

  @Exposed([MapOf(ContainerDto)])
  async createContainer(blog: ContainerDto): Promise<void> {
    if (!blog.name || !blog.type) throw new BadRequestException('name and type are required');
    await this.containers.create({ ...contentScope(), ...containerFields(blog) });
  }

  @Exposed([MapOf(ContainerDto), 'String'])
  async saveContainer(blog: ContainerDto, blogId: string): Promise<ContainerView> {
    const filter = { _id: toObjectId(blogId, 'blogId'), ...contentScope() };
    const saved = await this.containers
      .findOneAndUpdate(filter, { $set: containerFields(blog) }, { returnDocument: 'after', runValidators: true })
      .lean<StoredContainer>()
      .exec();
    if (!saved) throw new NotFoundException(`Container ${blogId} not found`);
    return toContainerView(saved);
  }

  @Exposed(['String', 'IdList'])
  async removeArticles(blogId: string, articleIds: string[]): Promise<void> {
    const ids = articleIds.map((id, i) => toObjectId(id, `articleIds[${i}]`));
    const filter = { _id: toObjectId(blogId, 'blogId'), ...contentScope() };
    const { matchedCount } = await this.containers
      .updateOne(filter, { $pull: { articles: { _id: { $in: ids } } } })
      .exec();
    if (matchedCount === 0) throw new NotFoundException(`Container ${blogId} not found`);
  }

  @Exposed(['String'])
  getContainerArticles(blogId: string): Promise<Record<string, string>[]> {
    return this.queries.containerArticles(blogId, 'editor');
  }

  /** Articles containing `regex` (matched as literal text, ignoring case) in title, summary, content or tags. */
  @Exposed(['String'])
  getArticles(regex: string): Promise<Record<string, unknown>[]> {
    return this.queries.findArticles(regex, 'editor');
  }

  /** Removes the listed containers; routes that showed them keep their pages. */
  @Exposed(['IdList'])
  async removeContainersByIds(blogsIds: string[]): Promise<void> {
    const ids = blogsIds.map((id, i) => toObjectId(id, `blogsIds[${i}]`));
    const existing = await this.containers
      .find({ _id: { $in: ids }, ...contentScope() }, { _id: 1 })
      .lean()
      .exec();
    await this.containers.deleteMany({ _id: { $in: existing.map((c) => c._id) } }).exec();
    const removed = existing.map((c) => c._id.toHexString());
    await this.routes.detachContainers(removed);
  }

  /** Removes the container and every route published for it. */
  @Exposed(['String'])
  async removeContainerAndClean(blogId: string): Promise<void> {
    const { deletedCount } = await this.containers
      .deleteOne({ _id: toObjectId(blogId, 'blogId'), ...contentScope() })
      .exec();
    if (deletedCount === 0) throw new NotFoundException(`Container ${blogId} not found`);
    await this.routes.removeOfContainer(blogId);
  }

  @Exposed(['String'])
  getContainerPaginationFilter(requestJson: string): PipelineStage[] {
    return containerPipeline(requestJson);
  }

  @Exposed(['String'])
  async searchContainerResultsPaged(requestJson: string): Promise<Page<ContainerView>> {
    const plan = planContainerSearch(requestJson);
    const { content, total } = await runSearch<StoredContainer>(this.containers, plan);
    return toPage(
      content.map((c) => toContainerView(c)),
      total,
      plan.page,
      plan.limit,
    );
  }

  @Exposed(['String'])
  async searchContainersResults(requestJson: string): Promise<ContainerView[]> {
    const content = await runSearchWindow<StoredContainer>(this.containers, planContainerSearch(requestJson));
    return content.map((c) => toContainerView(c));
  }

  /** Every offered type, and any other type in use, with the number of containers of that type here. */
  @Exposed()
  async getContainerTypes(): Promise<{ type: string; name: string; count: number }[]> {
    const counts = new Map<string, number>(Object.keys(CONTAINER_TYPES).map((type) => [type, 0]));
    for (const { type } of await this.containers.find(contentScope(), { type: 1 }).lean().exec()) {
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return [...counts].map(([type, count]) => ({ type, name: CONTAINER_TYPES[type] ?? type, count }));
  }
}

const CONTAINER_FIELDS = ['type', 'name', 'description', 'imageUrl', 'tags', 'published', 'metaInfo'] as const;
const ARTICLE_FIELDS = ['title', 'summary', 'content', 'imageUrl', 'author', 'tags', 'published'] as const;

function containerFields(blog: ContainerDto): Record<string, unknown> {
  const fields: Record<string, unknown> = pickDefined(blog, CONTAINER_FIELDS);
  if (blog.articles) fields.articles = blog.articles.map(articleFields);
  return fields;
}

function articleFields(article: ArticleDto): Record<string, unknown> {
  return {
    ...pickDefined(article, ARTICLE_FIELDS),
    _id: article.id ? new Types.ObjectId(article.id) : new Types.ObjectId(),
    ...(article.releaseDate ? { releaseDate: new Date(article.releaseDate) } : {}),
  };
}
