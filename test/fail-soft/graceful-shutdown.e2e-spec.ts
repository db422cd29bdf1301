import { mkdtempSync, rmSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { WebSocket } from 'ws';
import { eventually } from '../support/eventually';
import { ServerProcess, startServerProcess } from '../support/server-process';

/** True once nothing accepts connections on `port` any more. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** Everything the server sends on `socket` until it closes it. */
function answerOn(socket: Socket): Promise<string> {
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/**
 * Writes a login's head (with `Expect: 100-continue`) and the first part of its body; resolves once the server's
 * 100 Continue shows that it has taken the request in, so that a signal sent next finds it under way (a request
 * that comes after the signal is refused by the drain).
 */
function startLogin(socket: Socket, contentLength: number, bodyStart: string): Promise<unknown> {
  const continued = new Promise((resolve) => socket.once('data', resolve));
  socket.write(
    `POST /api/v1/auth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Expect: 100-continue\r\nContent-Length: ${contentLength}\r\n\r\n${bodyStart}`,
  );
  return continued;
}

/** The status with which the server answers a WebSocket upgrade (to `path`) it does not take. */
function refusedUpgrade(port: number, path = '/ws'): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, ['v12.stomp']);
    ws.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    ws.once('open', () => (ws.close(), reject(new Error('the upgrade was taken'))));
  });
}

/** A SockJS xhr-polling session's requests (`/sock/000/<id>/<transport>`): status, headers and body. */
async function sockJs(port: number, id: string, transport: 'xhr' | 'xhr_send', body?: string) {
  const response = await fetch(`http://127.0.0.1:${port}/sock/000/${id}/${transport}`, { method: 'POST', body });
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

/** Opens a SockJS xhr-polling session and connects STOMP on it. */
async function openSockJsSession(port: number, id: string): Promise<void> {
  expect(await sockJs(port, id, 'xhr')).toMatchObject({ status: 200, text: 'o\n' });
  expect((await sockJs(port, id, 'xhr_send', JSON.stringify(['CONNECT\naccept-version:1.2\n\n\0']))).status).toBe(204);
  expect((await sockJs(port, id, 'xhr')).text).toMatch(/^a\["CONNECTED\\n/);
}

/** Issue 25: on SIGTERM an instance stops taking new work, finishes what it holds and ends. */
describe('Graceful shutdown', () => {
  let dataDir: string;
  let server: ServerProcess;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ccb-shutdown-'));
  });

  afterEach(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts `src/main.ts` on a free port with an in-memory database (plus `env`); resolves with the port. */
  const startServer = async (env: Record<string, string> = {}): Promise<number> => {
    server = startServerProcess({
      PORT: '0',
      DATA_DIR: dataDir,
      EMBEDDED_DB_IN_MEMORY: 'true',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      ...env,
    });
    expect(await server.logged('Listening on')).toBe(true);
    return Number(/Listening on http:\/\/[\d.]+:(\d+)/.exec(server.output().stdout)?.[1]);
  };

  it('should answer a request in flight, refuse new connections, close STOMP sessions and exit', async () => {
    const port = await startServer();

    const stomp = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['v12.stomp']);
    const stompClosed = new Promise<number>((resolve) => stomp.once('close', (code) => resolve(code)));
    await new Promise((resolve) => stomp.once('open', resolve));
    stomp.send('CONNECT\naccept-version:1.2\n\n\0');
    await new Promise((resolve) => stomp.once('message', resolve));

    // a login whose body is half sent when the signal comes
    const body = JSON.stringify({ username: 'nobody', password: 'not-the-password' });
    const inFlight = connect(port, '127.0.0.1');
    await new Promise((resolve) => inFlight.once('connect', resolve));
    const answer = answerOn(inFlight);
    await startLogin(inFlight, Buffer.byteLength(body), body.slice(0, 10));

    server.child.kill('SIGTERM');
    while (!(await refuses(port))) await new Promise((resolve) => setTimeout(resolve, 50));
    inFlight.write(body.slice(10));

    expect(await answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 401 /);
    expect(await answer).toMatch(/\r\nConnection: close\r\n/); // not kept alive
    expect(await stompClosed).toBe(1001); // going away: clients reconnect, to another instance behind the proxy
    expect(await server.exited).toBeNull(); // Nest re-raises SIGTERM once closed: ended by the signal, not a crash
    expect(server.child.signalCode).toBe('SIGTERM');
  }, 360_000);

  it('should drain first: readiness and new requests 503 before any work, upgrades and SockJS refused, liveness 200', async () => {
    const port = await startServer({
      // the whole test long (it ends the process itself), and the bound past it
      SHUTDOWN_DRAIN_MS: '60000',
      SHUTDOWN_TIMEOUT_MS: '120000',
    });
    const http = () => request(`http://127.0.0.1:${port}`);
    await openSockJsSession(port, 'before-the-signal');

    server.child.kill('SIGTERM');
    const ready = await eventually(
      async () => http().get('/api/v1/health'),
      (res) => res.status === 503,
      'readiness fails once the signal is handled',
    );
    expect(ready.body).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      details: [{ field: 'shutdown', message: 'down: the instance is shutting down' }],
    });
    await http().get('/api/v1/health/live').expect(200);
    const login = await http().post('/api/v1/auth/token').send({ username: 'admin', password: 'admin-change-me' });
    expect(login.status).toBe(503);
    expect(login.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/not processed/) });
    expect(login.headers).toMatchObject({ connection: 'close', 'retry-after': '1' });
    expect(await refusedUpgrade(port)).toBe(503);

    // SockJS (outside Express) the same: its open session is closed at once (the poll gets the close frame), a new
    // session, its info and its WebSocket are refused
    expect(await sockJs(port, 'before-the-signal', 'xhr')).toMatchObject({
      status: 200,
      text: 'c[1001,"Server shutting down"]\n',
    });
    const newSession = await sockJs(port, 'after-the-signal', 'xhr');
    expect(newSession).toMatchObject({ status: 503, headers: { connection: 'close', 'retry-after': '1' } });
    expect(JSON.parse(newSession.text)).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/not processed/),
    });
    const info = await http().get('/sock/info');
    expect(info.status).toBe(503);
    expect(info.headers).toMatchObject({ connection: 'close', 'retry-after': '1' });
    expect(await refusedUpgrade(port, '/sock/websocket')).toBe(503);

    server.child.kill('SIGKILL');
    await server.exited;
  }, 360_000);

  it('should exit with code 1 once SHUTDOWN_TIMEOUT_MS has passed when something holds the shutdown', async () => {
    const timeoutMs = 1500;
    const port = await startServer({
      SHUTDOWN_TIMEOUT_MS: String(timeoutMs),
    });

    // A request whose body never ends: the HTTP server's close waits for it, so the shutdown hangs.
    const stuck = connect(port, '127.0.0.1');
    await new Promise((resolve) => stuck.once('connect', resolve));
    stuck.on('error', () => undefined); // reset when the process exits
    await startLogin(stuck, 1000, '{"username":');

    server.child.kill('SIGTERM');
    // The margin covers a loaded machine; without the bound the process would wait for the body for good.
    let timer: NodeJS.Timeout | undefined;
    const margin = new Promise<'still running'>((resolve) => {
      timer = setTimeout(() => resolve('still running'), timeoutMs + 20_000);
    });
    const ended = await Promise.race([server.exited, margin]);
    clearTimeout(timer);
    expect(ended).toBe(1);
    expect(server.output().stdout).toContain(`Shutdown on SIGTERM took longer than ${timeoutMs} ms; exiting anyway`);
    stuck.destroy();
  }, 360_000);
});
