import { BadRequestException } from '@nestjs/common';

const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * The canonical form of a site URI: leading slash, no trailing slash, no empty or dot segments, no query or
 * fragment. `undefined` when the path cannot be a route (`..`, control characters).
 */
export function canonicalUri(path: string): string | undefined {
  const withoutQuery = path.split(/[?#]/, 1)[0];
  const segments = withoutQuery.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..' || !SEGMENT.test(s))) return undefined;
  return `/${segments.join('/')}`;
}

/** Like {@link canonicalUri} for input the client controls: an unusable path is a 400 naming the field. */
export function requireUri(path: string, field: string): string {
  const uri = canonicalUri(path);
  if (!uri) throw new BadRequestException(`${field} is not a valid URI path`);
  return uri;
}
