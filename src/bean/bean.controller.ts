import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../common/authenticated-request';
import { clientAddress } from '../common/client-address';
import { BeanAdmission } from './admission/bean-admission';
import { BEAN_CALLS, RateQuota } from './admission/bean-rate-limit';
import { sendBeanResult } from './bean-response';

/** The unified call over HTTP: `POST /api/v1/bean/request` (DESIGN §3), admitted as over STOMP. */
@Controller('api/v1/bean')
export class BeanController {
  constructor(private readonly admission: BeanAdmission) {}

  @Post('request')
  async request(
    @Req() request: AuthenticatedRequest,
    @Res() response: Response,
    @Body() envelope: unknown,
  ): Promise<void> {
    const context = { lang: request.header('lang-context'), site: request.header('site-context') };
    const { result, quota } = await this.admission.call({ envelope, context, clientAddress: clientAddress(request) });
    setRateLimitHeaders(response, quota);
    sendBeanResult(response, result, request.headers.accept);
  }
}

/** The headers `@nestjs/throttler`'s guard sent before the admission took over, kept for clients that read them. */
function setRateLimitHeaders(response: Response, { limit, remaining, resetSeconds }: RateQuota): void {
  response.setHeader(`X-RateLimit-Limit-${BEAN_CALLS}`, limit);
  response.setHeader(`X-RateLimit-Remaining-${BEAN_CALLS}`, remaining);
  response.setHeader(`X-RateLimit-Reset-${BEAN_CALLS}`, resetSeconds);
}
