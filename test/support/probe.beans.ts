import { Controller, Get, HttpCode, Module, Post, RawBodyRequest, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';
import { Roles } from '../../src/auth/roles.decorator';
import { Bean, Exposed, MapOf } from '../../src/bean';
import { toPage } from '../../src/common/page';
import { Role } from '../../src/common/principal';
import { RequestContext } from '../../src/common/request-context';

export class ProbeJobDto {
  @IsString()
  type!: string;

  @IsInt()
  @Min(0)
  total = 0;

  @IsOptional()
  @IsBoolean()
  confirm = false;
}

/** A GUEST bean with one method per conversion rule, overloads, and stricter method-level roles. */
@Bean('probe', Role.GUEST)
export class ProbeService {
  @Exposed(['String', 'int'])
  typed(text: string, count: number) {
    return { text, count };
  }

  @Exposed(['boolean'])
  flag(value: boolean) {
    return { value };
  }

  @Exposed(['Map'])
  map(value: Record<string, unknown>) {
    return value;
  }

  @Exposed(['IdList'])
  ids(ids: string[]) {
    return ids;
  }

  @Exposed([MapOf(ProbeJobDto)])
  job(job: ProbeJobDto) {
    return { isDto: job instanceof ProbeJobDto, ...job };
  }

  @Exposed()
  nothing(): void {}

  @Exposed()
  bytes(): Buffer {
    return Buffer.from('%PDF-1.4 probe');
  }

  @Exposed()
  page() {
    return toPage(['a', 'b'], 5, 0, 2);
  }

  @Exposed()
  date() {
    return { at: new Date(0) };
  }

  @Exposed()
  context() {
    return RequestContext.current();
  }

  @Exposed()
  fails(): never {
    throw new Error('secret internals');
  }

  @Exposed([], { name: 'cart' })
  ownCart() {
    return 'own';
  }

  @Exposed(['String'], { name: 'cart', role: Role.ADMIN })
  cartOfBuyer(buyerId: string) {
    return `buyer:${buyerId}`;
  }

  @Exposed(['Map'], { name: 'cart' })
  cartFromMap() {
    return 'map';
  }

  @Exposed(['String', 'String', 'String'], { name: 'cart' })
  cartOfThree(a: string, b: string, c: string) {
    return [a, b, c].join('+');
  }

  @Exposed([], { role: Role.USER })
  forUsers() {
    return 'user';
  }

  notExposed() {
    return 'never';
  }
}

/** An ADMIN bean with one GUEST method, like the "conditional" beans of the spec. */
@Bean('probeAdmin', Role.ADMIN)
export class ProbeAdminService {
  @Exposed()
  secret() {
    return 'admin';
  }

  @Exposed([], { role: Role.GUEST })
  publicInfo() {
    return RequestContext.principal()?.role ?? null;
  }
}

@Controller('api/v1/probe')
export class ProbeController {
  @Roles(Role.ADMIN)
  @Get('admin')
  admin() {
    return { ok: true };
  }

  /** Whether an ordinary JSON route still holds the raw bytes (only signed webhooks should). */
  @Post('raw-body')
  @HttpCode(200)
  rawBody(@Req() request: RawBodyRequest<Request>) {
    return { rawBody: request.rawBody !== undefined };
  }
}

@Module({ providers: [ProbeService, ProbeAdminService], controllers: [ProbeController] })
export class ProbeModule {}
