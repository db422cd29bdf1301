import { spawn } from 'node:child_process';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** Base URL; a bare repository `<root>/x.git` is at `<url>/x.git`. */
  url: string;
  close(): Promise<void>;
}

/** Serves the bare repositories under `root` over git's smart HTTP protocol through `git http-backend` (CGI). */
export async function startGitHttpServer(root: string): Promise<GitHttpServer> {
  const server = createServer((req, res) => serve(root, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function serve(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    // http-backend allows pushes (receive-pack) for authenticated users only
    REMOTE_USER: 'tester',
    REMOTE_ADDR: '127.0.0.1',
    PATH_INFO: url.pathname,
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? 'GET',
    CONTENT_TYPE: req.headers['content-type'] ?? '',
  };
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
  const cgi = spawn('git', ['http-backend'], { env });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const [name, ...rest] = line.split(':');
      const value = rest.join(':').trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    headersSent = true;
    res.write(head.subarray(end + 4));
  });
  cgi.stdout.on('end', () => res.end());
  cgi.on('error', () => res.destroy());
}
