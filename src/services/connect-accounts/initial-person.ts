import { Injectable } from '@nestjs/common';
import { ProfileDirectory } from '../../auth/profiles/profile-directory';
import { UserAccounts } from '../../auth/users/user-accounts';
import { ConnectOwner } from './connect-owner';

/** The representative of a connect account, prefilled for the onboarding form. */
export interface ConnectPersonDTO {
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  address: { line1: string | null; postalCode: string | null; city: string | null; country: string | null };
  relationship: { representative: true; owner: boolean };
}

/** Builds the initial person from the owner's account and profile (seller or company profiles first). */
@Injectable()
export class InitialPerson {
  constructor(
    private readonly users: UserAccounts,
    private readonly profiles: ProfileDirectory,
  ) {}

  async of(owner: ConnectOwner): Promise<ConnectPersonDTO> {
    const user = await this.users.findByUsername(owner.principal.username);
    const [profile] = await this.profiles.ofUser(owner.userId);
    const [firstName, ...rest] = (profile?.displayName ?? owner.principal.username).trim().split(/\s+/);
    return {
      firstName: firstName ?? owner.principal.username,
      lastName: rest.length > 0 ? rest.join(' ') : null,
      email: profile?.contacts?.email ?? user?.email ?? null,
      phone: profile?.contacts?.phone ?? null,
      address: {
        line1: profile?.contacts?.street ?? null,
        postalCode: profile?.contacts?.postalCode ?? null,
        city: profile?.city ?? null,
        country: profile?.country ?? null,
      },
      relationship: { representative: true, owner: owner.sellerId !== undefined },
    };
  }
}
