import { Types } from 'mongoose';
import { Article, ContentContainer } from './container.schema';
import { Page } from './page.schema';

/** A document as read with `lean()`. */
export type Stored<T> = T & { _id: Types.ObjectId };

export interface PageView {
  id: string;
  site: string;
  lang: string;
  pageUrl: string;
  content: string;
  metaInfo: Record<string, unknown>;
  imageUrl: string | null;
  containerType: string | null;
  categoriesId: string[];
  releaseDate: Date | null;
  published: boolean;
  awaitingTranslation: boolean;
  emailTemplate: boolean;
  copiedFrom: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ArticleView {
  id: string;
  title: string;
  summary: string;
  content: string;
  imageUrl: string | null;
  author: string | null;
  tags: string[];
  published: boolean;
  releaseDate: Date | null;
}

export interface ContainerView {
  id: string;
  site: string;
  lang: string;
  type: string;
  name: string;
  description: string;
  imageUrl: string | null;
  tags: string[];
  published: boolean;
  metaInfo: Record<string, unknown>;
  articles: ArticleView[];
  createdAt: Date;
  updatedAt: Date;
}

export function toPageView(page: Stored<Page>): PageView {
  return {
    id: page._id.toHexString(),
    site: page.site,
    lang: page.lang,
    pageUrl: page.pageUrl,
    content: page.content,
    metaInfo: page.metaInfo ?? {},
    imageUrl: page.imageUrl ?? null,
    containerType: page.containerType ?? null,
    categoriesId: page.categoriesId ?? [],
    releaseDate: page.releaseDate ?? null,
    published: page.published,
    awaitingTranslation: page.awaitingTranslation,
    emailTemplate: page.emailTemplate,
    copiedFrom: page.copiedFrom ?? null,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
  };
}

export function toArticleView(article: Stored<Article>): ArticleView {
  return {
    id: article._id.toHexString(),
    title: article.title,
    summary: article.summary,
    content: article.content,
    imageUrl: article.imageUrl ?? null,
    author: article.author ?? null,
    tags: article.tags ?? [],
    published: article.published,
    releaseDate: article.releaseDate ?? null,
  };
}

export function toContainerView(
  container: Stored<ContentContainer>,
  articles = container.articles as Stored<Article>[],
): ContainerView {
  return {
    id: container._id.toHexString(),
    site: container.site,
    lang: container.lang,
    type: container.type,
    name: container.name,
    description: container.description,
    imageUrl: container.imageUrl ?? null,
    tags: container.tags ?? [],
    published: container.published,
    metaInfo: container.metaInfo ?? {},
    articles: articles.map(toArticleView),
    createdAt: container.createdAt,
    updatedAt: container.updatedAt,
  };
}

/** An article as `Map<String, String>` (getContainerArticles): every value a string, missing ones empty. */
export function articleAsStrings(
  article: Stored<Article>,
  container: Stored<ContentContainer>,
): Record<string, string> {
  return {
    id: article._id.toHexString(),
    containerId: container._id.toHexString(),
    title: article.title,
    summary: article.summary,
    content: article.content,
    imageUrl: article.imageUrl ?? '',
    author: article.author ?? '',
    tags: (article.tags ?? []).join(','),
    releaseDate: article.releaseDate?.toISOString() ?? '',
  };
}
