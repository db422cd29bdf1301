import { Injectable } from '@nestjs/common';
import { ContextHeaderCheck, ContextHeaderValues } from '../common/context-header-check';
import { codedError } from '../common/errors/coded-exception';
import { KnownSites } from './known-sites';

/** A BCP 47-like language tag; each subtag starts with its separator, so matching is linear. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,8}$/;

/**
 * The rules for the context headers, the same for REST and STOMP (CONNECT, SEND): both present, the language a
 * language code, the site a known one. A broken rule is a 400 naming the header.
 */
@Injectable()
export class ContextHeaders extends ContextHeaderCheck {
  constructor(private readonly sites: KnownSites) {
    super();
  }

  /**
   * @returns undefined when the headers pass, or a promise settled once an uncached site has been looked up
   *   (a bean call with a cached site does not wait for a promise: it sits on the hot path)
   * @throws BadRequestException CONTEXT_HEADER_INVALID for a missing or malformed header, UNKNOWN_SITE
   */
  check({ lang, site }: ContextHeaderValues): Promise<void> | undefined {
    if (lang === undefined || lang === '') throw codedError('CONTEXT_HEADER_INVALID', 'Missing header Lang-Context');
    if (!LANGUAGE_CODE.test(lang))
      throw codedError('CONTEXT_HEADER_INVALID', `Invalid header Lang-Context: '${lang}' is not a language code`);
    if (site === undefined || site === '') throw codedError('CONTEXT_HEADER_INVALID', 'Missing header Site-Context');
    return this.sites.isKnown(site) ? undefined : this.assertSiteExists(site);
  }

  private async assertSiteExists(site: string): Promise<void> {
    if (await this.sites.exists(site)) return;
    throw codedError('UNKNOWN_SITE', `Invalid header Site-Context: unknown site '${site}'`);
  }
}
