import { Injectable } from '@nestjs/common';
import { SitesService } from './sites.service';
import { codedError } from '../common/errors/coded-exception';

/** A BCP 47-like language tag; each subtag starts with its separator, so matching is linear. */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,8}$/;

/** `Lang-Context` and `Site-Context` of a call, as the caller gave them (undefined: the header is missing). */
export interface ContextHeaderValues {
  lang: string | undefined;
  site: string | undefined;
}

/**
 * The rules for the context headers, the same for REST and STOMP (CONNECT, SEND): both present, the language a
 * language code, the site a known one. A broken rule is a 400 naming the header.
 */
@Injectable()
export class ContextHeaders {
  constructor(private readonly sites: SitesService) {}

  /**
   * @returns undefined when the headers pass, or a promise settled once an uncached site has been looked up
   *   (a bean call with a cached site does not wait for a promise: it sits on the hot path)
   * @throws BadRequestException for a missing or malformed header
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
