import { Injectable } from '@nestjs/common';
import proxyaddr from 'proxy-addr';
import { AppConfig } from '../../config';

type Trust = (address: string, hop: number) => boolean;

/**
 * The address a STOMP client is counted by (guest rate limits, the login throttle), computed from its connection's
 * address and `X-Forwarded-For` with the same `TRUST_PROXY` rule as Express's `request.ip` for REST: behind a trusted
 * proxy every guest gets the budget of their own address, not the proxy's. Untrusted hops are ignored, so a client
 * cannot pick its address by sending the header itself.
 */
@Injectable()
export class ClientAddresses {
  private readonly trust: Trust;

  constructor(config: AppConfig) {
    this.trust = compileTrust(config.trustProxy);
  }

  of(remoteAddress: string | undefined, forwardedFor: string | string[] | undefined): string {
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const request = {
      socket: { remoteAddress },
      connection: { remoteAddress },
      headers: { 'x-forwarded-for': header },
    };
    return proxyaddr(request as unknown as Parameters<typeof proxyaddr>[0], this.trust) ?? '';
  }
}

/** Express's own reading of the `trust proxy` setting (true, a hop count, or addresses and subnets). */
function compileTrust(setting: boolean | number | string): Trust {
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  if (setting === false) return () => false;
  return proxyaddr.compile(setting.split(',').map((entry) => entry.trim()));
}
