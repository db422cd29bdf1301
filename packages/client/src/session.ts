/** A bearer token and what the client knows of it. */
export interface TokenInfo {
  token: string;
  /** Expiry instant in epoch milliseconds, when known. */
  expires?: number;
  /** The role claim (GUEST, USER, ADMIN) when the token says it. */
  role?: string;
}

export type TokenListener = (token: TokenInfo | undefined) => void;

/** The token endpoint's answer (DESIGN §4). */
export interface IssuedToken {
  token: string;
  expires: number;
}

/** Refresh this long before expiry, but never earlier than at nine tenths of the token's life. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * Holds the current token, tells listeners when it changes and renews it before it expires. The server has no
 * refresh endpoint, so renewing means asking `auth/token` again with the credentials of the last `login`, kept in
 * memory only (and only when `login` was asked to keep them).
 */
export class Session {
  private current?: TokenInfo;
  private readonly listeners = new Set<TokenListener>();
  private renewTimer?: ReturnType<typeof setTimeout>;
  private renew?: () => Promise<IssuedToken>;

  constructor(
    token: string | undefined,
    private readonly onRenewFailed: (error: unknown) => void,
  ) {
    if (token) this.current = tokenInfo(token);
  }

  get token(): TokenInfo | undefined {
    return this.current;
  }

  /** Sets the token (or none) and schedules its renewal with `renew`, when given. */
  set(token: TokenInfo | undefined, renew?: () => Promise<IssuedToken>): void {
    this.current = token;
    this.renew = renew;
    this.schedule();
    for (const listener of [...this.listeners]) listener(token);
  }

  onChange(listener: TokenListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.renewTimer);
    this.renew = undefined;
  }

  private schedule(): void {
    clearTimeout(this.renewTimer);
    const { renew, current } = this;
    if (!renew || current?.expires === undefined) return;
    const lifetime = current.expires - Date.now();
    const delay = Math.max(0, lifetime - Math.min(REFRESH_MARGIN_MS, lifetime / 10));
    this.renewTimer = setTimeout(() => {
      renew().then(
        (issued) => this.set(withClaims(issued), renew),
        (error: unknown) => this.onRenewFailed(error),
      );
    }, delay);
    // In Node the timer must not keep the process alive on its own.
    (this.renewTimer as { unref?: () => void }).unref?.();
  }
}

export function withClaims(issued: IssuedToken): TokenInfo {
  return { ...tokenInfo(issued.token), expires: issued.expires };
}

/** Reads `exp` and `role` from a JWT's payload (not verified: the server does that). */
export function tokenInfo(token: string): TokenInfo {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(atob(payload)) as { exp?: unknown; role?: unknown };
    const expires = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    return { token, expires, role: typeof claims.role === 'string' ? claims.role : undefined };
  } catch {
    return { token };
  }
}
