import { INestApplication, Logger } from '@nestjs/common';
import express from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppConfig } from '../config/app-config';

export const CONSOLE_PATH = '/console';

/** The console's built files (`npm run build` writes them to `packages/console/dist`). */
function consoleFiles(): string | undefined {
  try {
    const dist = join(dirname(require.resolve('@ccb/console/package.json')), 'dist');
    return existsSync(join(dist, 'index.html')) ? dist : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the web console (`packages/console`) at `/console` when `CONSOLE_ENABLED` (by default everywhere but
 * production). The console is static files that speak only the public API, with the caller's own token, so it grants
 * nothing by itself. Helmet's default CSP suits it (same-origin script and connections) except
 * `upgrade-insecure-requests`, which would break it on a plain-HTTP host, as for Swagger UI.
 */
export function setupConsole(app: INestApplication): void {
  if (!app.get(AppConfig).consoleEnabled) return;
  const files = consoleFiles();
  if (!files) {
    new Logger('Console').warn('The console is enabled but not built (npm run build); /console answers 404');
    return;
  }
  app.use(
    CONSOLE_PATH,
    helmet.contentSecurityPolicy({ directives: { upgradeInsecureRequests: null } }),
    express.static(files, { index: 'index.html', fallthrough: true, maxAge: '1h' }),
  );
}
