import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Refuses (400) a parsed request body nested deeper than `maxDepth` before any route sees it. Nest's
 * `ValidationPipe`, class-transformer and the services walk bodies recursively: a body a few thousand levels deep
 * (a 1 MiB body holds half a million) overflowed the stack there, a 500 that cost the CPU of the whole walk.
 * `JSON.parse` itself is not recursive in V8, so the check runs on the parsed value, in one iterative pass that stops
 * at the first level too deep, and holds for every parser (JSON and URL-encoded forms) and every character set.
 */
export function refuseDeepBodies(maxDepth: number) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    if (nestingExceeds(request.body as unknown, maxDepth)) {
      next(new BadRequestException(`The request body may be nested at most ${maxDepth} levels deep`));
    } else {
      next();
    }
  };
}

/** True when `value` has objects or arrays nested more than `maxDepth` levels (a flat object is one level). */
export function nestingExceeds(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
  return false;
}
