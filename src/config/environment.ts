import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
} from 'class-validator';

export enum NodeEnv {
  Development = 'development',
  Production = 'production',
  Test = 'test',
}

export enum LogLevel {
  Fatal = 'fatal',
  Error = 'error',
  Warn = 'warn',
  Info = 'info',
  Debug = 'debug',
  Trace = 'trace',
  Silent = 'silent',
}

/** Development defaults of the secrets; production refuses to start with them. */
export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me-in-production';
export const DEV_ADMIN_PASSWORD = 'admin-change-me';
export const DEV_CARD_PAYMENT_WEBHOOK_SECRET = 'dev-only-card-payment-webhook-secret';
export const DEV_DELIVERY_WEBHOOK_SECRET = 'dev-only-delivery-webhook-secret';
export const DEV_ALT_PAYMENT_WEBHOOK_SECRET = 'dev-only-alt-payment-webhook-secret';
export const MIN_PRODUCTION_JWT_SECRET_LENGTH = 32;
export const MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH = 12;
/** Webhook HMAC secrets and the New Plant bearer token. */
export const MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH = 32;

/** The provider implementations built in; production runs one only when the operator names it. */
export const SANDBOX_PROVIDER = 'sandbox';
const PROVIDER_MESSAGE = `must be ${SANDBOX_PROVIDER} (the only built-in implementation)`;

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
/** An integer variable within `[min, max]`, given as an exact decimal string. */
const IntSetting = (min: number, max?: number): PropertyDecorator =>
  applyDecorators(Transform(toInt), IsInt(), Min(min), ...(max === undefined ? [] : [Max(max)]));
const DURATION = /^\d+[smhd]?$/;
/** DESIGN §9: at least 1 s between heart-beats. */
export const MIN_HEARTBEAT_MS = 1000;
const toBoolean = ({ value }: { value: unknown }): unknown =>
  value === 'true' ? true : value === 'false' ? false : value;

/**
 * Every environment variable the app reads, with its default (mirrored in `.env.example`).
 * Values arrive as strings; the transforms accept only exact integers and `true`/`false`.
 */
export class EnvironmentVariables {
  @IsEnum(NodeEnv)
  NODE_ENV: NodeEnv = NodeEnv.Development;

  @IntSetting(0, 65535)
  PORT = 3000;

  /** Unset: 127.0.0.1, or 0.0.0.0 in production. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  HOST?: string = undefined;

  /** Unset: the embedded MongoDB-compatible server is started. */
  @IsOptional()
  @Matches(/^mongodb(\+srv)?:\/\/\S+$/, { message: 'MONGODB_URI must be a mongodb:// or mongodb+srv:// URI' })
  MONGODB_URI?: string = undefined;

  @IsString()
  @IsNotEmpty()
  DATA_DIR = './data';

  /** Keep the embedded database in memory instead of under DATA_DIR (tests). */
  @Transform(toBoolean)
  @IsBoolean()
  EMBEDDED_DB_IN_MEMORY = false;

  /**
   * Memory for the storefront's result cache (MiB); 0 turns it off. Only with the embedded database: with MONGODB_URI
   * the cache has no commit counters to check its results against and stays off (see the catalogue README).
   */
  @IntSetting(0, 4096)
  STOREFRONT_CACHE_MB = 32;

  /**
   * Run the embedded database's thread 10 nice levels below the app's (Linux), so that a long query yields to HTTP;
   * the seed and reindex commands turn it off: there nothing else in the process needs the core.
   */
  @Transform(toBoolean)
  @IsBoolean()
  EMBEDDED_DB_LOWER_PRIORITY = true;

  /**
   * The embedded database thread's heap limit (MiB), where it keeps every document and index key. Unset: half the
   * machine's memory (the package's `maxHeapMb` default); V8's own limit for a thread stops near 4 GiB.
   */
  @IsOptional()
  @IntSetting(64)
  EMBEDDED_DB_MAX_HEAP_MB?: number = undefined;

  @IsString()
  @MinLength(16)
  JWT_SECRET = DEV_JWT_SECRET;

  @Matches(/^\d+[smhd]?$/, { message: 'JWT_TTL must be a duration such as 3600, 90s, 15m, 1h or 7d' })
  JWT_TTL = '1h';

  @IsString()
  @IsNotEmpty()
  ADMIN_USERNAME = 'admin';

  @IsString()
  @MinLength(8)
  ADMIN_PASSWORD = DEV_ADMIN_PASSWORD;

  @Transform(toBoolean)
  @IsBoolean()
  SEED_DEMO = true;

  /** Comma-separated origins allowed by CORS, e.g. `https://shop.example.com,https://admin.example.com`. */
  @Matches(/^(https?:\/\/[^\s,/]+)?(,https?:\/\/[^\s,/]+)*$/, {
    message: 'CORS_ORIGINS must be a comma-separated list of origins such as https://shop.example.com',
  })
  CORS_ORIGINS = '';

  @IntSetting(1024)
  JSON_BODY_LIMIT = 1024 * 1024;

  /** Deepest nesting of a request body; deeper: 400. At most 1000, which the recursive validators still walk. */
  @IntSetting(8, 1000)
  JSON_MAX_DEPTH = 128;

  /** Longest a shutdown (SIGTERM, SIGINT) may take before the process exits anyway (ms). */
  @IntSetting(1000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /**
   * How long a stopping instance stays listening while it refuses new requests with a 503 (ms), so that a proxy
   * retries them elsewhere and stops sending before the listener closes (see "Restarts" in the README).
   */
  @IntSetting(0, 60_000)
  SHUTDOWN_DRAIN_MS = 1000;

  /** Bean calls allowed per minute per principal (per client address for guests). */
  @IntSetting(1)
  BEAN_RATE_LIMIT = 1200;

  @IsEnum(LogLevel)
  LOG_LEVEL: LogLevel = LogLevel.Info;

  /**
   * `json`: one JSON object per line; `pretty`: one line per record for people (pino-pretty).
   * Unset: pretty in development, else json.
   */
  @IsOptional()
  @IsIn(['json', 'pretty'], { message: 'LOG_FORMAT must be json or pretty' })
  LOG_FORMAT?: 'json' | 'pretty';

  /** Proxies in front of the server whose X-Forwarded-For is trusted: `false`, `true`, a hop count, or addresses. */
  @Matches(/^(true|false|\d+|[\w.:/]+(,[\w.:/]+)*)$/, {
    message: 'TRUST_PROXY must be false, true, a number of hops, or comma-separated addresses/subnets',
  })
  TRUST_PROXY = 'false';

  /** E-mail address of the admin created at first start. */
  @IsString()
  @IsNotEmpty()
  ADMIN_EMAIL = 'admin@localhost';

  /** Lifetime of a session cookie, and of one with "remember me". */
  @Matches(DURATION, { message: 'SESSION_TTL must be a duration such as 3600, 90s, 15m, 8h or 7d' })
  SESSION_TTL = '8h';

  @Matches(DURATION, { message: 'REMEMBER_ME_TTL must be a duration such as 3600, 90s, 15m, 8h or 30d' })
  REMEMBER_ME_TTL = '30d';

  /** Credential attempts per minute per client and username; above it: 429. */
  @IntSetting(1)
  AUTH_RATE_LIMIT = 10;

  /** Failed logins of one username from one client that lock that client out of it for AUTH_LOCKOUT_TTL. */
  @IntSetting(1)
  AUTH_LOCKOUT_THRESHOLD = 5;

  /** Failed logins of one username from all clients within AUTH_LOCKOUT_TTL after which it is slowed down. */
  @IntSetting(1)
  AUTH_USERNAME_SOFT_LIMIT = 50;

  /** Once over AUTH_USERNAME_SOFT_LIMIT: one attempt at that username per this many seconds, from any client. */
  @IntSetting(1)
  AUTH_USERNAME_SLOW_SECONDS = 10;

  @Matches(DURATION, { message: 'AUTH_LOCKOUT_TTL must be a duration such as 900, 90s, 15m or 1h' })
  AUTH_LOCKOUT_TTL = '15m';

  /** The web console at /console; unset: on, except in production. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  CONSOLE_ENABLED?: boolean = undefined;

  /** Enables register, verify, reset-password, save-password and change-password. */
  @Transform(toBoolean)
  @IsBoolean()
  AUTH_EMAIL_FLOWS = false;

  /** Outgoing mail server as a URL; wins over SMTP_HOST. Neither set: mail is written to DATA_DIR/outbox. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string = undefined;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  SMTP_HOST?: string = undefined;

  @IntSetting(1, 65535)
  SMTP_PORT = 587;

  /** true: TLS from the start (port 465); false: STARTTLS when the server offers it. */
  @Transform(toBoolean)
  @IsBoolean()
  SMTP_SECURE = false;

  @IsOptional()
  @IsString()
  SMTP_USER?: string = undefined;

  @IsOptional()
  @IsString()
  SMTP_PASSWORD?: string = undefined;

  @IsString()
  @IsNotEmpty()
  MAIL_FROM = 'no-reply@localhost';

  /** Git remote of the site content (vcsProvider): http(s) URL, file:// URL or local path of a bare repository. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  VCS_REMOTE_URL?: string = undefined;

  @IsString()
  @IsNotEmpty()
  VCS_BRANCH = 'main';

  /** Largest uploaded file in bytes (larger: 413). */
  @IntSetting(1)
  UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

  /** Comma-separated subscriber URLs of the New Plant webhook (empty: no announcements). */
  @Matches(/^(https?:\/\/[^\s,]+)?(,https?:\/\/[^\s,]+)*$/, {
    message: 'NEW_PLANT_WEBHOOK_URLS must be a comma-separated list of http(s) URLs',
  })
  NEW_PLANT_WEBHOOK_URLS = '';

  /** Sent to New Plant subscribers as `Authorization: Bearer <token>`. */
  @IsOptional()
  @IsString()
  NEW_PLANT_WEBHOOK_TOKEN?: string = undefined;

  /** Deliveries per subscriber before giving up; waits double from NEW_PLANT_WEBHOOK_BACKOFF_MS. */
  @IntSetting(1, 20)
  NEW_PLANT_WEBHOOK_MAX_ATTEMPTS = 6;

  @IntSetting(1)
  NEW_PLANT_WEBHOOK_BACKOFF_MS = 1000;

  /** How long a running job's lease lasts unless its instance renews it (renewed every third of it). */
  @IntSetting(300)
  JOB_LEASE_MS = 30000;

  /** HMAC secret of the card payment webhooks (`/api/v1/cardpayment`), shared with the provider. */
  @IsString()
  @MinLength(16)
  CARD_PAYMENT_WEBHOOK_SECRET = DEV_CARD_PAYMENT_WEBHOOK_SECRET;

  /** HMAC secret of the logistics tracking webhooks (`/api/v1/delivery/webhook`). */
  @IsString()
  @MinLength(16)
  DELIVERY_WEBHOOK_SECRET = DEV_DELIVERY_WEBHOOK_SECRET;

  /** Base URL clients reach this server at (3-D Secure challenge links); unset: the listening address. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+$/, { message: 'PUBLIC_URL must be an http(s) origin without a path' })
  PUBLIC_URL?: string = undefined;

  /**
   * Comma-separated origins besides `PUBLIC_URL`'s that a payment's `returnUrl` may lead back to after 3-D Secure,
   * e.g. the storefront's `https://shop.example.com` (no open redirect: any other origin is refused).
   */
  @Matches(/^(https?:\/\/[^\s,/]+)?(,https?:\/\/[^\s,/]+)*$/, {
    message: 'PAYMENT_RETURN_ORIGINS must be a comma-separated list of origins such as https://shop.example.com',
  })
  PAYMENT_RETURN_ORIGINS = '';

  /** VAT charged to buyers and on sellers' invoices, in percent. */
  @IntSetting(0, 100)
  ORDER_TAX_RATE = 0;

  /** The marketplace's commission on an order's subtotal, in percent. */
  @IntSetting(0, 100)
  ORDER_SERVICE_FEE_RATE = 0;

  /** `auto`: checkout approves orders for offers in stock at once; `manual`: an ADMIN approves each order. */
  @IsIn(['auto', 'manual'], { message: 'ORDER_APPROVAL must be auto or manual' })
  ORDER_APPROVAL: 'auto' | 'manual' = 'auto';

  /** `review`: an ADMIN approves or rejects each seller application; `open`: applications are approved at once. */
  @IsIn(['review', 'open'], { message: 'SELLER_ONBOARDING must be review or open' })
  SELLER_ONBOARDING: 'review' | 'open' = 'review';

  /** How long an unpaid order keeps its stock before it is canceled. */
  @Matches(/^[1-9]\d*[smhd]?$/, { message: 'ORDER_PAYMENT_TTL must be a duration such as 1800, 90s, 30m or 1h' })
  ORDER_PAYMENT_TTL = '30m';

  /** How long after its payment a paid order without its invoice waits before a sweep issues it. */
  @Matches(/^[1-9]\d*[smhd]?$/, { message: 'INVOICE_RETRY_AFTER must be a duration such as 300, 90s, 5m or 1h' })
  INVOICE_RETRY_AFTER = '5m';

  /** API key of the alternative (redirect) payment provider; unset: alternative payments are off. */
  @IsOptional()
  @IsString()
  ALT_PAYMENT_API_KEY?: string = undefined;

  /** HMAC secret of the alternative payment webhooks (`/api/v1/altpayment/webhook`). */
  @IsString()
  @MinLength(16)
  ALT_PAYMENT_WEBHOOK_SECRET = DEV_ALT_PAYMENT_WEBHOOK_SECRET;

  /** Card payment provider (and its connect accounts); unset: the sandbox, but production needs it named. */
  @IsOptional()
  @IsIn([SANDBOX_PROVIDER], { message: `PAYMENT_PROVIDER ${PROVIDER_MESSAGE}` })
  PAYMENT_PROVIDER?: string = undefined;

  /** Logistics provider; unset: the sandbox, except in production. */
  @IsOptional()
  @IsIn([SANDBOX_PROVIDER], { message: `DELIVERY_PROVIDER ${PROVIDER_MESSAGE}` })
  DELIVERY_PROVIDER?: string = undefined;

  /** Alternative (redirect) payment provider; unset: the sandbox, except in production. */
  @IsOptional()
  @IsIn([SANDBOX_PROVIDER], { message: `ALT_PAYMENT_PROVIDER ${PROVIDER_MESSAGE}` })
  ALT_PAYMENT_PROVIDER?: string = undefined;

  /** API key of the accounting provider (contacts, invoices); only reported by `isAccountingKeyDefined`. */
  @IsOptional()
  @IsString()
  ACCOUNTING_API_KEY?: string = undefined;

  /** The marketplace's name as the issuer of payout statements and commission invoices. */
  @IsString()
  @IsNotEmpty()
  INVOICE_ISSUER_NAME = 'Marketplace';

  /** Largest STOMP frame, headers and body together; larger: ERROR and close. */
  @IntSetting(1024)
  STOMP_MAX_FRAME_BYTES = 64 * 1024;

  /** Heart-beats the server offers in CONNECTED: `<can send every>,<wants to receive every>` ms; 0 = none. */
  @Matches(/^\d+,\d+$/, { message: 'STOMP_HEARTBEAT must be "<send ms>,<receive ms>", e.g. 10000,10000' })
  STOMP_HEARTBEAT = '10000,10000';

  /** Undelivered bytes a WebSocket may queue before the session is closed as a slow consumer. */
  @IntSetting(64 * 1024)
  STOMP_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

  @IntSetting(1)
  STOMP_MAX_SUBSCRIPTIONS = 1000;

  /** How often an open session's token is verified again (revocation). */
  @IntSetting(MIN_HEARTBEAT_MS)
  STOMP_REVERIFY_MS = 60_000;

  /** Comma-separated broker destination prefixes clients may SEND to directly (benchmarks); empty: none. */
  @Matches(/^(\/[^\s,]*)?(,\/[^\s,]*)*$/, {
    message: 'STOMP_CLIENT_SEND_PREFIXES must be a comma-separated list of destination prefixes such as /topic/bench',
  })
  STOMP_CLIENT_SEND_PREFIXES = '';

  /** External STOMP broker (WebSocket URL) that broker destinations are relayed through; unset: in-process. */
  @IsOptional()
  @IsUrl(
    { protocols: ['ws', 'wss'], require_protocol: true, require_tld: false },
    { message: 'STOMP_RELAY_URL must be a ws:// or wss:// URL, e.g. ws://user:pass@127.0.0.1:15674/ws' },
  )
  STOMP_RELAY_URL?: string = undefined;

  /** Prefix of the relay's topic names upstream, so that several shops (or test runs) can share one broker. */
  @Matches(/^[a-z0-9-]{1,32}$/, { message: 'STOMP_RELAY_NAMESPACE must be 1-32 characters a-z, 0-9 or -' })
  STOMP_RELAY_NAMESPACE = 'ccb';

  /** Publications kept while the relay is disconnected, sent in order on reconnection; beyond: dropped and logged. */
  @IntSetting(0)
  STOMP_RELAY_BUFFER = 1000;

  /** Redis shared by all instances for per-request counters (rate limits); unset: counted in-process. */
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string = undefined;

  /** Prefix of every key this app writes to Redis. */
  @Matches(/^[A-Za-z0-9:_-]{1,64}$/, { message: 'REDIS_KEY_PREFIX must be 1-64 characters A-Z, a-z, 0-9, :, _ or -' })
  REDIS_KEY_PREFIX = 'ccb:';
}
