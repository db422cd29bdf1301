import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { toObjectId } from '../../common/mongo/object-id';
import { escapeRegex, literalMatch } from '../../common/search';
import { Article, ContentContainer } from './container.schema';
import { articleAsStrings, Stored } from './content-views';
import { contentScope } from './scope';
import { isReleased } from './visibility';

type StoredContainer = Stored<ContentContainer> & { articles: Stored<Article>[] };

/** Whether a query sees everything (editors) or only what is published (visitors). */
export type Audience = 'editor' | 'visitor';

const MAX_ARTICLES = 500;
const MAX_RELATED = 50;

/** Read-side queries over containers and their articles, shared by the editor and visitor beans. */
@Injectable()
export class ContentQueries {
  constructor(@InjectModel(ContentContainer.name) private readonly containers: Model<ContentContainer>) {}

  async container(containerId: string, audience: Audience): Promise<StoredContainer> {
    const filter = { _id: toObjectId(containerId, 'containerId'), ...contentScope(), ...visible(audience) };
    const container = await this.containers.findOne(filter).lean<StoredContainer>().exec();
    if (!container) throw new NotFoundException(`Container ${containerId} not found`);
    return container;
  }

  async containerArticles(containerId: string, audience: Audience): Promise<Record<string, string>[]> {
    const container = await this.container(containerId, audience);
    return articlesFor(container, audience).map((article) => articleAsStrings(article, container));
  }

  /** Articles whose title, summary, content or tags contain `text` (literally, ignoring case). */
  async findArticles(text: string, audience: Audience): Promise<Record<string, unknown>[]> {
    const match = literalMatch(text ?? '');
    const fields = ['articles.title', 'articles.summary', 'articles.content', 'articles.tags'];
    const containers = await this.containers
      .find({ ...contentScope(), ...visible(audience), $or: fields.map((field) => ({ [field]: match })) })
      .sort({ updatedAt: -1 })
      .lean<StoredContainer[]>()
      .exec();
    const pattern = new RegExp(escapeRegex(text ?? ''), 'i');
    const found = containers.flatMap((container) =>
      articlesFor(container, audience)
        .filter((a) => [a.title, a.summary, a.content, ...(a.tags ?? [])].some((value) => pattern.test(value)))
        .map((article) => articleSummary(article, container)),
    );
    return found.slice(0, MAX_ARTICLES);
  }

  /** Other containers of the same type, most shared tags first, then the most recently updated. */
  async related(containerId: string, size: string, audience: Audience): Promise<Record<string, unknown>[]> {
    const limit = toSize(size);
    const container = await this.container(containerId, audience);
    const others = await this.containers
      .find({ ...contentScope(), ...visible(audience), type: container.type, _id: { $ne: container._id } })
      .sort({ updatedAt: -1 })
      .limit(1000)
      .lean<StoredContainer[]>()
      .exec();
    const tags = new Set(container.tags);
    return others
      .map((other) => ({ other, shared: other.tags.filter((tag) => tags.has(tag)) }))
      .sort((a, b) => b.shared.length - a.shared.length)
      .slice(0, limit)
      .map(({ other, shared }) => ({
        id: other._id.toHexString(),
        name: other.name,
        type: other.type,
        description: other.description,
        imageUrl: other.imageUrl ?? null,
        tags: other.tags,
        sharedTags: shared,
        articleCount: articlesFor(other, audience).length,
      }));
  }
}

function visible(audience: Audience): Record<string, unknown> {
  return audience === 'visitor' ? { published: true } : {};
}

function articlesFor(container: StoredContainer, audience: Audience): Stored<Article>[] {
  if (audience === 'editor') return container.articles;
  return container.articles.filter((a) => a.published && isReleased(a.releaseDate));
}

function articleSummary(article: Stored<Article>, container: StoredContainer): Record<string, unknown> {
  return {
    id: article._id.toHexString(),
    containerId: container._id.toHexString(),
    containerName: container.name,
    containerType: container.type,
    title: article.title,
    summary: article.summary,
    imageUrl: article.imageUrl ?? null,
    author: article.author ?? null,
    tags: article.tags ?? [],
    published: article.published,
    releaseDate: article.releaseDate ?? null,
  };
}

function toSize(size: string): number {
  const value = Number(size);
  if (!/^\d+$/.test(String(size)) || value < 1 || value > MAX_RELATED) {
    throw new BadRequestException(`size must be an integer from 1 to ${MAX_RELATED}`);
  }
  return value;
}
