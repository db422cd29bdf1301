import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AppConfig } from '../../config/app-config';

/** This server's own base URLs, for the built-in provider sandboxes. */
@Injectable()
export class SelfUrl {
  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Where clients reach us: `PUBLIC_URL`, else the listening address. */
  public(): string {
    return this.config.publicUrl ?? this.local();
  }

  /**
   * The listening socket itself. Sandboxes deliver signed webhooks here, never to a host taken from a request,
   * so a forged `Host` header cannot redirect a signed event elsewhere.
   */
  local(): string {
    const { address, port } = (this.adapterHost.httpAdapter.getHttpServer() as Server).address() as AddressInfo;
    const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  }
}
