/**
 * What a bean's `getRepository()` answers. The spec returns a Spring repository object, which has no JSON form;
 * a description of the store (its entity, collection and size) is what a client can use.
 */
export interface RepositoryDescription {
  repository: string;
  entity: string;
  collection: string;
  count: number;
}

export interface DescribeOptions {
  /** Default: the model's name. */
  entity?: string;
  /** Default: the collection's estimated size. */
  count?: () => Promise<number>;
}

/** The schema-independent members of a mongoose model used here. */
interface DescribedModel {
  modelName: string;
  collection: { collectionName: string };
  estimatedDocumentCount(): { exec(): Promise<number> };
}

export async function describeRepository(
  repository: string,
  model: DescribedModel,
  options: DescribeOptions = {},
): Promise<RepositoryDescription> {
  const count = options.count ? await options.count() : await model.estimatedDocumentCount().exec();
  return { repository, entity: options.entity ?? model.modelName, collection: model.collection.collectionName, count };
}
