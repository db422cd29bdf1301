import { RequestContext } from '../../common/request-context';

/** The site and language of the current request: every content query is confined to them. */
export function contentScope(): { site: string; lang: string } {
  const { site, lang } = RequestContext.current();
  return { site, lang };
}
