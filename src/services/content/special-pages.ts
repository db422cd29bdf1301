import { Page } from './page.schema';

/** By convention a site's login and 404 pages are the pages with these pageUrls; unpublished: these URIs. */
export const LOGIN_PAGE = { pageUrl: 'login', fallback: '/login' };
export const NOT_FOUND_PAGE = { pageUrl: '404', fallback: '/404' };

const NOINDEX = /(^|[\s,])(noindex|none)([\s,]|$)/i;

/**
 * Whether search engines may list the page: not the 404 page (an error page, shown for every unknown URI), nor a
 * page whose `metaInfo.robots` says `noindex` (or `none`), as the HTML robots meta tag does.
 */
export function isIndexable(page: Pick<Page, 'pageUrl'> & { metaInfo?: Record<string, unknown> }): boolean {
  if (page.pageUrl === NOT_FOUND_PAGE.pageUrl) return false;
  const robots = page.metaInfo?.robots;
  return !(typeof robots === 'string' && NOINDEX.test(robots));
}
