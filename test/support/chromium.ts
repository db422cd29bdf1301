import path from 'node:path';

/** Debian's chromium, which `test/support/prepare-machine.sh` installs when it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, and without the background connections this machine's closed network refuses (component updates,
 * sync, QUIC, first-run pings).
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where browser tests leave their screenshots when they fail. */
export const ARTIFACTS = path.join(__dirname, '../../tmp/artifacts');
