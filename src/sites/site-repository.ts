import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { Role } from '../common/principal';
import { RepositoryRegistry } from '../common/repository-registry';
import { Site } from './site.schema';

/** Exposes the sites (public: id and name) as repository `sites` of `/request/repository`. */
@Injectable()
export class SiteRepository implements OnModuleInit {
  constructor(
    @InjectModel(Site.name) private readonly sites: Model<Site>,
    private readonly repositories: RepositoryRegistry,
  ) {}

  onModuleInit(): void {
    this.repositories.register('sites', this.sites, Role.GUEST);
  }
}
