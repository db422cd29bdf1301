import { Controller, Get, Header, HttpCode, NotFoundException, Param, Post, Res } from '@nestjs/common';
import { Response } from 'express';
import { ConnectAccountStore } from '../connect-account-store';
import { ONBOARDING_PATH } from '../onboarding-links';

/**
 * The sandbox's hosted onboarding page. The token in the URL is the capability (as on a provider's page):
 * accepting the terms there meets `tos_acceptance` and sends the owner to the `returnUrl`; an expired link sends
 * them to the `refreshUrl` to ask for a new one.
 */
@Controller(ONBOARDING_PATH.slice(1))
export class OnboardingController {
  constructor(private readonly store: ConnectAccountStore) {}

  @Get(':token')
  @Header('content-type', 'text/html; charset=utf-8')
  async page(@Param('token') token: string, @Res({ passthrough: true }) response: Response): Promise<string> {
    const account = await this.store.findByOnboardingToken(token);
    if (!account) throw new NotFoundException('Unknown onboarding link');
    if (!account.onboardingExpiresAt || account.onboardingExpiresAt < new Date()) {
      response.redirect(303, account.refreshUrl ?? '/');
      return '';
    }
    return `<!doctype html><html><head><title>Connect onboarding (sandbox)</title></head><body>
<h1>Set up payouts</h1><p>Accept the connected account terms of the sandbox provider.</p>
<form method="post"><button>Accept and continue</button></form></body></html>`;
  }

  @Post(':token')
  @HttpCode(303)
  async accept(@Param('token') token: string, @Res() response: Response): Promise<void> {
    const account = await this.store.acceptTerms(token);
    if (!account) throw new NotFoundException('Unknown or expired onboarding link');
    response.redirect(303, account.returnUrl ?? '/');
  }
}
