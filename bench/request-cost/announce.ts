import { writeSync } from 'node:fs';

/** The bench servers' ready line goes to fd 3, so that stdout stays free for the access log. */
export function announce(ready: { url: string; token?: string }): void {
  writeSync(3, `${JSON.stringify(ready)}\n`);
}
