import { CcbClient, CcbError, createClient } from '@ccb/client';

export type Role = 'GUEST' | 'USER' | 'ADMIN';
const RANK: Record<Role, number> = { GUEST: 0, USER: 1, ADMIN: 2 };

/** True when a caller of `actual` may call what needs `required` (GUEST < USER < ADMIN). */
export function mayCall(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}

/** What one call answered, for the explorer's result panel. */
export interface Outcome {
  ok: boolean;
  /** HTTP status, or 200/the error's status for a STOMP reply. */
  status: number;
  ms: number;
  requestId: string;
  value: unknown;
  error?: CcbError;
}

export type Transport = 'rest' | 'stomp';

/**
 * The console's connection to the API: the typed client (REST and STOMP), with a `fetch` that notes the request id
 * of the last bean call (the client returns only the value), and the logged-in user's name and role.
 */
export class Api {
  readonly client: CcbClient;
  private lastRequestId = '';

  constructor(
    readonly lang: string,
    token?: string,
  ) {
    this.client = createClient({
      baseUrl: location.origin,
      site: 'default',
      lang,
      token,
      fetch: (input, init) => this.noted(input, init),
    });
  }

  get role(): Role {
    const role = this.client.token?.role;
    return role === 'USER' || role === 'ADMIN' ? role : 'GUEST';
  }

  get username(): string | undefined {
    const token = this.client.token?.token;
    if (!token) return undefined;
    try {
      const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as {
        username?: unknown;
        sub?: unknown;
      };
      const name = payload.username ?? payload.sub;
      return typeof name === 'string' ? name : undefined;
    } catch {
      return undefined;
    }
  }

  /** Calls a bean over REST or STOMP and describes the answer; never throws. */
  async call(transport: Transport, beanId: string, functionName: string, args: unknown[]): Promise<Outcome> {
    const started = performance.now();
    this.lastRequestId = '';
    try {
      const value =
        transport === 'rest'
          ? await this.client.call(beanId, functionName, args)
          : await this.client.live.call(beanId, functionName, args);
      return { ok: true, status: 200, ms: elapsed(started), requestId: this.lastRequestId, value };
    } catch (error) {
      const failure = error instanceof CcbError ? error : CcbError.local('BAD_RESPONSE', 'Error', String(error));
      return {
        ok: false,
        status: failure.status,
        ms: elapsed(started),
        requestId: failure.requestId || this.lastRequestId,
        value: failure.body,
        error: failure,
      };
    }
  }

  private async noted(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const response = await fetch(input, init);
    this.lastRequestId = response.headers.get('X-Request-Id') ?? '';
    return response;
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
