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
    await this.assertContextHeaders(request);
    const result = await this.invoker.invoke(parseBeanCall(envelope));
    sendBeanResult(response, result, request.headers.accept);
  }

  private async assertContextHeaders(request: AuthenticatedRequest): Promise<void> {
    const lang = request.header('lang-context');
    if (!lang) throw new BadRequestException('Missing header Lang-Context');
    if (!LANGUAGE_CODE.test(lang)) throw new BadRequestException(`Invalid header Lang-Context: '${lang}' is not a language code`);
    const site = request.header('site-context');
    if (!site) throw new BadRequestException('Missing header Site-Context');
    if (!(await this.sites.exists(site))) throw new BadRequestException(`Invalid header Site-Context: unknown site '${site}'`);
  }
}
