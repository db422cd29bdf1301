/** `Lang-Context` and `Site-Context` of a call, as the caller gave them (undefined: the header is missing). */
export interface ContextHeaderValues {
  lang: string | undefined;
  site: string | undefined;
}

/**
 * The check of a call's context headers, as the bean gateway needs it. The sites module provides it
 * (`ContextHeaders`): the gateway knows no sites, so the dependency points from the feature to the framework.
 */
export abstract class ContextHeaderCheck {
  /**
   * @returns undefined when the headers pass, or a promise settled once an uncached site has been looked up
   * @throws HttpException 400 (CONTEXT_HEADER_INVALID, UNKNOWN_SITE) for a missing, malformed or unknown value
   */
  abstract check(values: ContextHeaderValues): Promise<void> | undefined;
}

/** The site of a call that names none, created at first start. */
export const DEFAULT_SITE_ID = 'default';
