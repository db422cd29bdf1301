import { BadRequestException, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SelfUrl } from '../payments';
import { ConnectAccountStore } from './connect-account-store';
import { StoredConnectAccount } from './connect-account.view';
import { ConnectOwner } from './connect-owner';

export const ONBOARDING_PATH = '/api/v1/connect/onboarding';
/** A link is short-lived and single-use, as a provider's account links are. */
const LINK_TTL_MS = 5 * 60 * 1000;

export interface OnboardingLink {
  url: string;
  account: StoredConnectAccount;
}

/** Onboarding links to the sandbox's own onboarding page. */
@Injectable()
export class OnboardingLinks {
  constructor(
    private readonly store: ConnectAccountStore,
    private readonly self: SelfUrl,
  ) {}

  /** A fresh link for the owner's account (created if need be); the page sends the owner back to `returnUrl`. */
  async create(owner: ConnectOwner, refreshUrl: string, returnUrl: string): Promise<OnboardingLink> {
    const link = {
      onboardingToken: randomBytes(24).toString('hex'),
      onboardingExpiresAt: new Date(Date.now() + LINK_TTL_MS),
      refreshUrl: httpUrl(refreshUrl, 'refreshUrl'),
      returnUrl: httpUrl(returnUrl, 'returnUrl'),
    };
    const account = await this.store.upsert(owner, { $set: link });
    return { url: `${this.self.public()}${ONBOARDING_PATH}/${link.onboardingToken}`, account };
  }
}

/** @throws BadRequestException unless `value` is an absolute http(s) URL */
export function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequestException(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequestException(`${name} must be an http(s) URL`);
  }
  return url.toString();
}
