import { ArgumentForm, toArgumentForm } from './argument-forms';
import { beanProxies } from './bean-proxies';
import { CcbError } from './errors';
import type { Beans } from './generated/beans';
import { HttpContext, postJson } from './http';
import { LiveClient, LiveOptions } from './live';
import { IssuedToken, Session, TokenInfo, TokenListener, tokenInfo, withClaims } from './session';

export interface ClientOptions {
  /** e.g. `https://shop.example.com` (no trailing slash needed). */
  baseUrl: string;
  /** The `Site-Context` of every call. */
  site: string;
  /** The `Lang-Context` of every call, e.g. `en`. */
  lang: string;
  /** A bearer token to start with (no renewal: only `login` can renew). */
  token?: string;
  /** How bean arguments travel; `positional` by default. */
  argumentForm?: ArgumentForm;
  /** A `fetch` implementation; the global one by default. */
  fetch?: typeof fetch;
  live?: LiveOptions;
  /** Called when renewing the token failed; the token is kept until it expires. */
  onRenewFailed?: (error: unknown) => void;
}

export interface LoginOptions {
  /** Keep the credentials in memory to renew the token before it expires (no refresh endpoint exists). Default true. */
  renew?: boolean;
}

export interface CcbClient {
  /** `beans.<beanId>.<functionName>(...args)` over REST (`POST /api/v1/bean/request`). */
  readonly beans: Beans;
  /** STOMP: subscriptions and bean calls over WebSocket/SockJS. */
  readonly live: LiveClient;
  /** The current token, if any. */
  readonly token: TokenInfo | undefined;
  /** An untyped call, for bean ids known only at run time. */
  call(beanId: string, functionName: string, args: readonly unknown[]): Promise<unknown>;
  /** `POST /api/v1/auth/token`; later calls and the live connection use the token. @throws CcbError 401 */
  login(username: string, password: string, options?: LoginOptions): Promise<TokenInfo>;
  /** `POST /api/v1/logout`: the server revokes the token; the client forgets it and reconnects as a guest. */
  logout(): Promise<void>;
  /** Uses `token` from now on (or none); the live connection reconnects with it. */
  setToken(token: string | undefined): void;
  onTokenChange(listener: TokenListener): () => void;
  /** Stops renewing and closes the live connection. */
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): CcbClient {
  const session = new Session(options.token, options.onRenewFailed ?? (() => undefined));
  const http: HttpContext = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    site: options.site,
    lang: options.lang,
    token: () => session.token?.token,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
  const argumentForm = options.argumentForm ?? 'positional';
  const call = (beanId: string, functionName: string, args: readonly unknown[]): Promise<unknown> =>
    postJson(http, '/api/v1/bean/request', { beanId, functionName, args: toArgumentForm(args, argumentForm) });
  const issue = (username: string, password: string) => (): Promise<IssuedToken> =>
    postJson<IssuedToken>(http, '/api/v1/auth/token', { username, password });
  const live = new LiveClient(
    { ...http, argumentForm, onTokenChange: (listener) => session.onChange(() => listener()) },
    options.live,
  );

  return {
    beans: beanProxies(call),
    live,
    get token() {
      return session.token;
    },
    call,
    async login(username, password, { renew = true } = {}) {
      const renewal = issue(username, password);
      const token = withClaims(await renewal());
      session.set(token, renew ? renewal : undefined);
      return token;
    },
    async logout() {
      const role = session.token?.role;
      if (!role) throw CcbError.local('NOT_LOGGED_IN', 'Not Logged In', 'logout needs a token with a role claim');
      await postJson(http, '/api/v1/logout', { role: role.toLowerCase() });
      session.set(undefined);
    },
    setToken(token) {
      session.set(token ? tokenInfo(token) : undefined);
    },
    onTokenChange: (listener) => session.onChange(listener),
    async close() {
      session.close();
      await live.disconnect();
    },
  };
}
