import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

export const SITEMAP_GEN_TYPES = ['ALL', 'PAGES', 'CONTAINERS', 'PRODUCTS'] as const;
export type SitemapGenType = (typeof SITEMAP_GEN_TYPES)[number];
const toList = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? [value] : value);

/**
 * Input of `generateSiteMap`: the published routes of the current site (every language) as absolute URLs
 * `<urlPrefix><sitePrefix><route>`. `siteMapGenType` picks routes: `ALL` (default: routes and product pages), `PAGES` (routes without a container),
 * `CONTAINERS` (routes showing a container) or `PRODUCTS` (the product pages `/products/<slug>` of listed products). `urlsToIgnore` lists route paths left out, with everything below them.
 */
export class SitemapRequestDto {
  @IsIn(SITEMAP_GEN_TYPES)
  siteMapGenType: SitemapGenType = 'ALL';

  @IsOptional()
  @Matches(/^(\/[A-Za-z0-9._~-]+)*$/, { message: 'sitePrefix must be a path such as /shop, or empty' })
  sitePrefix?: string;

  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  @Matches(/^[^?#]*[^/?#]$/, { message: 'urlPrefix must not end with a slash' })
  urlPrefix!: string;

  @IsOptional()
  @Transform(toList)
  @IsArray()
  @IsString({ each: true })
  urlsToIgnore?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(200)
  username?: string;
}
