import { ContainerView, PageView } from '../content/content-views';

/** How the single-page application should answer a URI. */
export interface SPARoute {
  site: string;
  lang: string;
  /** The canonical form of the requested URI. */
  uri: string;
  /** 200 (page found), 301 (see `redirect`) or 404 (`page` is the site's 404 page, when it has one). */
  status: 200 | 301 | 404;
  page: PageView | null;
  container: ContainerView | null;
  redirect: string | null;
}
