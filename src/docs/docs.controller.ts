import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequestHandlerRegistry } from '../realtime/requests/request-handler-registry';
import { buildAsyncApiDocument } from './asyncapi';

/** `GET /api/v1/asyncapi.json`: the STOMP destinations. (OpenAPI and Swagger UI are mounted by `setupApiDocs`.) */
@ApiExcludeController()
@Controller('api/v1')
export class DocsController {
  constructor(private readonly handlers: RequestHandlerRegistry) {}

  @Get('asyncapi.json')
  asyncApi(@Req() request: Request): Record<string, unknown> {
    return buildAsyncApiDocument(
      (destination) => this.handlers.find(destination) !== undefined,
      request.get('host') ?? 'localhost',
    );
  }
}
