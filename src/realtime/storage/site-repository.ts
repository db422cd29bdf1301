import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { Connection } from 'mongoose';
import { Role } from '../../common/principal';
import { Site } from '../../sites/site.schema';
import { RepositoryRegistry } from './repository-registry';

/** Exposes the sites (public: id and name) as repository `sites`. */
@Injectable()
export class SiteRepository implements OnModuleInit {
  constructor(
    @InjectConnection() private readonly connection: Connection,
    private readonly repositories: RepositoryRegistry,
  ) {}

  onModuleInit(): void {
    // The sites module registered the model on the connection when its providers were created.
    this.repositories.register('sites', this.connection.model(Site.name), Role.GUEST);
  }
}
