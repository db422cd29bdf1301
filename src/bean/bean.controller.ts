import { BadRequestException, Body, Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { SitesService } from '../sites/sites.service';
import { parseBeanCall } from './bean-call';
import { BeanInvoker } from './bean-invoker';
import { sendBeanResult } from './bean-response';
import { BeanThrottlerGuard } from './bean-throttler.guard';

const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/;

/** The unified call over HTTP: `POST /api/v1/bean/request` (DESIGN §3). */
@Controller('api/v1/bean')
@UseGuards(BeanThrottlerGuard)
export class BeanController {
  constructor(
    private readonly invoker: BeanInvoker,
    private readonly sites: SitesService,
  ) {}

  @Post('request')
  async request(@Req() request: AuthenticatedRequest, @Res() response: Response, @Body() envelope: unknown): Promise<void> {
    const siteToLookUp = this.assertContextHeaders(request);
    if (siteToLookUp !== undefined) await this.assertSiteExists(siteToLookUp);
    const result = await this.invoker.invoke(parseBeanCall(envelope));
    sendBeanResult(response, result, request.headers.accept);
  }

  /** Checks the context headers; @returns the site when it still has to be looked up (it is not cached yet). */
  private assertContextHeaders(request: AuthenticatedRequest): string | undefined {
    const lang = request.header('lang-context');
    if (!lang) throw new BadRequestException('Missing header Lang-Context');
    if (!LANGUAGE_CODE.test(lang)) throw new BadRequestException(`Invalid header Lang-Context: '${lang}' is not a language code`);
    const site = request.header('site-context');
    if (!site) throw new BadRequestException('Missing header Site-Context');
    return this.sites.isKnown(site) ? undefined : site;
  }

  private async assertSiteExists(site: string): Promise<void> {
    if (await this.sites.exists(site)) return;
    throw new BadRequestException(`Invalid header Site-Context: unknown site '${site}'`);
  }
}
