import { Agent, IncomingHttpHeaders, request } from 'node:http';
import { startTestApp, TestApp } from '../../support/test-app';

/** The app for fuzzing: bean rate limits out of the way, so every case reaches the code under test. */
export function startFuzzApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ env: { BEAN_RATE_LIMIT: '1000000000', ...env } });
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * One HTTP client per test file over a keep-alive agent: a fuzz case costs one request on an open connection.
 * A request that gets no answer within `hangMs` fails the case (the server hung), as does a dropped connection.
 */
export class FuzzClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly hangMs = 15_000,
  ) {}

  send({ method = 'POST', path, headers = {}, body }: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      });
      req.setTimeout(this.hangMs, () => req.destroy(new Error(`No answer within ${this.hangMs} ms: the server hangs`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * The property every fuzzed HTTP answer must have: a success (`allowed`), or a 4xx whose body is the DESIGN §3
 * error `{code, status, error, message, path, timestamp, requestId, details?}` with the answer's status; never a 5xx.
 * @throws Error describing the answer otherwise (fast-check reports it with the shrunk case)
 */
export function assertCleanAnswer(response: RawResponse, allowed: (status: number) => boolean = () => false): void {
  if (response.status < 400 && allowed(response.status)) return;
  if (response.status < 400 || response.status >= 500) {
    throw new Error(`Unexpected ${response.status}: ${response.text.slice(0, 500)}`);
  }
  assertErrorBody(response.text, response.status);
}

/** The DESIGN §3 error body, as REST answers and STOMP error replies carry it. */
export function assertErrorBody(text: string, status: number): void {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`A ${status} whose body is not JSON: ${text.slice(0, 500)}`);
  }
  const wellFormed =
    body.status === status &&
    typeof body.code === 'string' &&
    typeof body.error === 'string' &&
    typeof body.message === 'string' &&
    body.message !== '' &&
    typeof body.requestId === 'string' &&
    body.requestId !== '' &&
    typeof body.timestamp === 'string' &&
    (body.details === undefined || Array.isArray(body.details));
  if (!wellFormed) throw new Error(`A ${status} not in the DESIGN §3 error shape: ${text.slice(0, 500)}`);
  if (/\n\s+at .+:\d+:\d+/.test(text)) throw new Error(`A stack trace reached the client: ${text.slice(0, 500)}`);
}

/** After a property: the app still answers its health check and a real bean call. */
export async function assertHealthy(client: FuzzClient): Promise<void> {
  const health = await client.send({ method: 'GET', path: '/api/v1/health' });
  if (health.status !== 200) throw new Error(`Health check answered ${health.status}: ${health.text}`);
  const call = await client.send(
    beanCall({ beanId: 'profileSearchServiceImpl', functionName: 'getRepository', args: [] }),
  );
  if (call.status !== 200) throw new Error(`A plain bean call answered ${call.status}: ${call.text}`);
}

export interface BeanCallRequest {
  token?: string;
  headers?: Record<string, string>;
}

/** `POST /api/v1/bean/request` with the context headers a client sends, for `envelope` (any JSON). */
export function beanCall(envelope: unknown, { token, headers = {} }: BeanCallRequest = {}): RawRequest {
  return {
    path: '/api/v1/bean/request',
    headers: {
      'Content-Type': 'application/json',
      'Lang-Context': 'en',
      'Site-Context': 'default',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: JSON.stringify(envelope),
  };
}
