import { BadRequestException, Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { Model } from 'mongoose';
import { assertAccess } from '../../common/access';
import { toPage } from '../../common/page';
import { isNonArrayObject } from '../../common/plain-object';
import { Role } from '../../common/principal';
import { redactSecrets } from '../../common/redaction';
import { RequestContext } from '../../common/request-context';
import { RequestHandlerRegistry, StompRequestHandler } from '../requests/request-handler-registry';
import { asClientError, clientQuery, intField } from './query-guard';
import { RepositoryRegistry } from '../../common/repository-registry';

/** The registry holds models of any schema; operations use them as models of plain documents. */
type DocumentModel = Model<Record<string, unknown>>;
type Operation = (model: DocumentModel, message: Record<string, unknown>) => Promise<unknown>;

const MAX_PAGE_SIZE = 200;

const READS: Record<string, Operation> = {
  FIND_ALL: async (model, message) => {
    const page = intField(message, 'page', 0, [0, Number.MAX_SAFE_INTEGER]);
    const size = intField(message, 'size', 20, [1, MAX_PAGE_SIZE]);
    const [content, total] = await Promise.all([
      model
        .find()
        .sort({ _id: 1 })
        .skip(page * size)
        .limit(size)
        .lean(),
      // The whole collection's size, from its metadata: no second pass over the documents.
      model.estimatedDocumentCount(),
    ]);
    return toPage(content, total, page, size);
  },
  FIND_BY_ID: async (model, message) => {
    const found: unknown = await model.findById(idOf(message)).lean();
    if (!found) throw new NotFoundException(`No entity with id ${String(message.id)}`);
    return found;
  },
  COUNT: (model) => model.estimatedDocumentCount(),
};

const WRITES: Record<string, Operation> = {
  SAVE: async (model, message) => {
    const raw = message.entity ?? message.payload;
    if (!isNonArrayObject(raw)) throw new BadRequestException('entity must be a JSON object');
    const entity = clientQuery<Record<string, unknown>>(raw, 'entity');
    if (entity._id === undefined) return (await model.create(entity)).toObject();
    return model
      .findOneAndReplace({ _id: entity._id }, entity, { upsert: true, returnDocument: 'after', runValidators: true })
      .lean();
  },
  DELETE: async (model, message) => ({ deletedCount: (await model.deleteOne({ _id: idOf(message) })).deletedCount }),
};

/**
 * `/request/repository`: a RepositoryRequestMessage `{repositoryId, requestType, page?, size?, id?, entity?}`
 * over the models in {@link RepositoryRegistry}. SAVE takes `entity` (or `payload`) and replaces by `_id`.
 * Answers are redacted as every raw read is (`redactSecrets`).
 */
@Injectable()
export class RepositoryRequestHandler implements StompRequestHandler, OnModuleInit {
  readonly channel = 'json';

  constructor(
    private readonly repositories: RepositoryRegistry,
    private readonly registry: RequestHandlerRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register('/request/repository', this);
  }

  async handle(message: Record<string, unknown>): Promise<unknown> {
    const { repositoryId, requestType } = message;
    const repository = typeof repositoryId === 'string' ? this.repositories.find(repositoryId) : undefined;
    if (!repository) throw new NotFoundException(`Unknown repository ${String(repositoryId)}`);
    const type = String(requestType);
    const operation = Object.hasOwn(READS, type) ? READS[type] : Object.hasOwn(WRITES, type) ? WRITES[type] : undefined;
    if (!operation)
      throw new BadRequestException(
        `requestType must be one of ${[...Object.keys(READS), ...Object.keys(WRITES)].join(', ')}`,
      );
    assertAccess(RequestContext.principal(), Object.hasOwn(WRITES, type) ? Role.ADMIN : repository.readRole);
    return operation(repository.model as DocumentModel, message).then(redactSecrets, (error: unknown) => {
      throw asClientError(error);
    });
  }
}

function idOf(message: Record<string, unknown>): string | number {
  const { id } = message;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new BadRequestException('id must be a string or a number');
  return id;
}
