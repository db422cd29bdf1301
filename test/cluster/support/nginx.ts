import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const NGINX = '/usr/sbin/nginx';

/** The recipe's two instances and its public listener, which a test replaces with addresses of this machine. */
const RECIPE_INSTANCES = ['10.0.0.11:3000', '10.0.0.12:3000'];
const RECIPE_LISTEN = 'listen 443 ssl;';

export interface Nginx {
  url: string;
  /** The access log so far: one line per request, `<status> <upstream addresses> <upstream statuses> <request>`. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/** The nginx configuration of the README's "Several instances", exactly as the README shows it. */
export function readmeNginxRecipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```nginx\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1) throw new Error(`README.md has ${blocks.length} nginx blocks; the test expects one`);
  return blocks[0][1];
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Debian's nginx (`npm test` installs it) with the README's recipe in front of `instancePorts`, run as a process of
 * this test (`-p <tmpdir>`, no root needed), listening on a free port of 127.0.0.1 without TLS.
 */
export async function startNginx(instancePorts: number[]): Promise<Nginx> {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: run 'apt-get install -y nginx' (npm test does)`);
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'ccb-nginx-'));
  chmodSync(prefix, 0o755); // nginx's workers run as another user when the test runs as root
  writeFileSync(join(prefix, 'nginx.conf'), configuration(prefix, port, instancePorts));
  const child = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', join(prefix, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await untilListening(port, child, () => stderr);
  return {
    url: `http://127.0.0.1:${port}`,
    accessLog: () => readFileSync(join(prefix, 'access.log'), 'utf8').split('\n').filter(Boolean),
    stop: async () => {
      child.kill('SIGQUIT'); // graceful: the workers finish what they serve
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** The recipe inside the few lines a whole nginx.conf needs, its addresses replaced by this machine's. */
function configuration(prefix: string, port: number, instancePorts: number[]): string {
  let recipe = readmeNginxRecipe();
  RECIPE_INSTANCES.forEach((address, i) => (recipe = replaceEvery(recipe, address, `127.0.0.1:${instancePorts[i]}`)));
  recipe = replaceEvery(recipe, RECIPE_LISTEN, `listen 127.0.0.1:${port};`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `  ${kind}_temp_path ${join(prefix, kind)};`,
  );
  return [
    'daemon off;',
    `pid ${join(prefix, 'nginx.pid')};`,
    'events {}',
    'http {',
    '  log_format upstreams "$status $upstream_addr $upstream_status $request";',
    `  access_log ${join(prefix, 'access.log')} upstreams;`,
    ...temp,
    recipe,
    '}',
    '',
  ].join('\n');
}

/** Replaces every `text`, which must be there: the recipe keeps the shape the test relies on. */
function replaceEvery(recipe: string, text: string, by: string): string {
  if (!recipe.includes(text)) throw new Error(`The README's nginx recipe no longer has "${text}"`);
  return recipe.split(text).join(by);
}

async function untilListening(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr()}`);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx does not listen on ${port}: ${stderr()}`);
}
