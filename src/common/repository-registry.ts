import { Injectable } from '@nestjs/common';
import { Model } from 'mongoose';
import { Role } from './principal';

/** Any schema may be registered; the handler only uses schema-independent model methods. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModel = Model<any, any, any, any, any, any>;

export interface RegisteredRepository {
  model: AnyModel;
  /** Needed for FIND_ALL, FIND_BY_ID and COUNT; SAVE and DELETE always need ADMIN. */
  readRole: Role;
}

/** Mongoose models reachable through `/request/repository`, by repositoryId. */
@Injectable()
export class RepositoryRegistry {
  private readonly repositories = new Map<string, RegisteredRepository>();

  /**
   * `readRole` defaults to ADMIN: a model is private until its module says otherwise.
   * @example repositories.register('sites', siteModel, Role.GUEST);
   * @throws Error when the id is taken
   */
  register(repositoryId: string, model: AnyModel, readRole = Role.ADMIN): void {
    if (this.repositories.has(repositoryId)) throw new Error(`Repository ${repositoryId} is already registered`);
    this.repositories.set(repositoryId, { model, readRole });
  }

  find(repositoryId: string): RegisteredRepository | undefined {
    return this.repositories.get(repositoryId);
  }
}
