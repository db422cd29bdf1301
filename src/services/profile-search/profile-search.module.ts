import { Module } from '@nestjs/common';
import { ProfilesModule } from '../../auth/profiles/profiles.module';
import { ProfileSearchService } from './profile-search.service';

@Module({ imports: [ProfilesModule], providers: [ProfileSearchService] })
export class ProfileSearchModule {}
