import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { resolve } from 'node:path';
import {
  DEV_ADMIN_PASSWORD,
  DEV_ALT_PAYMENT_WEBHOOK_SECRET,
  DEV_CARD_PAYMENT_WEBHOOK_SECRET,
  DEV_DELIVERY_WEBHOOK_SECRET,
  DEV_JWT_SECRET,
  EnvironmentVariables,
  LogLevel,
  MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH,
  MIN_HEARTBEAT_MS,
  MIN_PRODUCTION_JWT_SECRET_LENGTH,
  MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH,
  NodeEnv,
  SANDBOX_PROVIDER,
} from './environment';

/** Thrown at start-up when the environment is invalid; the message names every bad variable. */
export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = ConfigValidationError.name;
  }
}

/** Outgoing mail server: a URL, or host settings; unset means the development outbox under `dataDir`. */
export type SmtpSettings =
  { url: string } | { host: string; port: number; secure: boolean; user?: string; password?: string };

/** STOMP over WebSocket. */
export interface StompSettings {
  /** Largest frame, headers and body together; larger: ERROR and close. */
  maxFrameBytes: number;
  /** What the server offers in CONNECTED `heart-beat`: [can send every, wants to receive every] ms. */
  heartbeat: readonly [number, number];
  /** Undelivered bytes a WebSocket may queue before the session is closed as a slow consumer. */
  maxBufferedBytes: number;
  maxSubscriptionsPerSession: number;
  /** How often an authenticated session's token is verified again (revocation). */
  reverifyEveryMs: number;
  /** Broker destination prefixes clients may SEND to directly (benchmarks); empty = none. */
  clientSendPrefixes: readonly string[];
  /** External STOMP broker that broker destinations are relayed through; unset = in-process. */
  relayUrl: URL | undefined;
  /** Prefix of the relay's topic names upstream. */
  relayNamespace: string;
  /** Publications kept while the relay is disconnected. */
  relayBufferSize: number;
}

/** The provider implementation bound for each kind of provider; `sandbox` is the only one built in. */
export interface ProviderChoice {
  payment: string;
  delivery: string;
  altPayment: string;
}

interface ProductionSecret {
  name: 'JWT_SECRET' | 'ADMIN_PASSWORD' | `${'CARD_PAYMENT' | 'DELIVERY' | 'ALT_PAYMENT'}_WEBHOOK_SECRET`;
  devDefault: string;
  minLength: number;
}

/** Secrets with a development default committed in the repository: production refuses the default and short ones. */
const PRODUCTION_SECRETS: readonly ProductionSecret[] = [
  { name: 'JWT_SECRET', devDefault: DEV_JWT_SECRET, minLength: MIN_PRODUCTION_JWT_SECRET_LENGTH },
  { name: 'ADMIN_PASSWORD', devDefault: DEV_ADMIN_PASSWORD, minLength: MIN_PRODUCTION_ADMIN_PASSWORD_LENGTH },
  {
    name: 'CARD_PAYMENT_WEBHOOK_SECRET',
    devDefault: DEV_CARD_PAYMENT_WEBHOOK_SECRET,
    minLength: MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH,
  },
  {
    name: 'DELIVERY_WEBHOOK_SECRET',
    devDefault: DEV_DELIVERY_WEBHOOK_SECRET,
    minLength: MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH,
  },
  {
    name: 'ALT_PAYMENT_WEBHOOK_SECRET',
    devDefault: DEV_ALT_PAYMENT_WEBHOOK_SECRET,
    minLength: MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH,
  },
];

/** Which provider implementation runs; each must be named in production, so a sandbox never runs there by default. */
const PROVIDER_VARIABLES = ['PAYMENT_PROVIDER', 'DELIVERY_PROVIDER', 'ALT_PAYMENT_PROVIDER'] as const;

const DURATION_UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** The validated, typed configuration; built once at start-up and injected as `AppConfig`. */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  readonly mongodbUri: string | undefined;
  /** Absolute path. */
  readonly dataDir: string;
  readonly embeddedDbInMemory: boolean;
  /** Bytes the storefront's result cache may hold (0: off). */
  readonly storefrontCacheBytes: number;
  readonly embeddedDbLowerPriority: boolean;
  /** The embedded database thread's heap limit (MiB); undefined: the package's default, half the machine's memory. */
  readonly embeddedDbMaxHeapMb: number | undefined;
  readonly jwtSecret: string;
  readonly jwtTtlSeconds: number;
  readonly adminUsername: string;
  readonly adminPassword: string;
  readonly seedDemo: boolean;
  readonly corsOrigins: string[];
  readonly jsonBodyLimitBytes: number;
  /** Deepest nesting of a request body (JSON or form) before a route sees it; deeper: 400. */
  readonly jsonMaxDepth: number;
  /** Longest a shutdown may take before the process exits anyway (ms). */
  readonly shutdownTimeoutMs: number;
  /** How long a stopping instance refuses new requests with a 503 before its listener closes (ms). */
  readonly shutdownDrainMs: number;
  readonly beanRateLimitPerMinute: number;
  readonly logLevel: LogLevel;
  readonly logFormat: 'json' | 'pretty';
  /** Express `trust proxy`: client addresses (rate limits of guests) come from X-Forwarded-For of these proxies. */
  readonly trustProxy: boolean | number | string;
  readonly adminEmail: string;
  readonly sessionTtlSeconds: number;
  readonly rememberMeTtlSeconds: number;
  readonly authRateLimit: number;
  readonly authLockoutThreshold: number;
  readonly authLockoutSeconds: number;
  readonly authUsernameSoftLimit: number;
  readonly authUsernameSlowSeconds: number;
  /** Shared counters; undefined: in-process. */
  readonly redis: { url: string; keyPrefix: string } | undefined;
  readonly authEmailFlows: boolean;
  /** Whether `/console` is served (CONSOLE_ENABLED; unset: everywhere but production). */
  readonly consoleEnabled: boolean;
  readonly smtp: SmtpSettings | undefined;
  readonly mailFrom: string;
  readonly vcsRemoteUrl: string | undefined;
  readonly vcsBranch: string;
  readonly uploadMaxBytes: number;
  readonly newPlantWebhook: { urls: string[]; token: string; maxAttempts: number; backoffMs: number };
  /** How long a job's or an outbox delivery's lease lasts unless renewed. */
  readonly jobLeaseMs: number;
  readonly webhookSecrets: { cardPayment: string; delivery: string };
  readonly publicUrl: string | undefined;
  /** Origins besides `publicUrl`'s that a payment's 3-D Secure `returnUrl` may lead to. */
  readonly paymentReturnOrigins: string[];
  readonly orderRates: { taxPercent: number; serviceFeePercent: number };
  /** Whether checkout approves orders itself (`auto`) or leaves them to an ADMIN (`manual`). */
  readonly orderApproval: 'auto' | 'manual';
  /** Whether seller applications wait for an ADMIN (`review`) or are approved at once (`open`). */
  readonly sellerOnboarding: 'review' | 'open';
  /** How long an unpaid order keeps its stock before it is canceled. */
  readonly orderPaymentTtlMs: number;
  /** How long a paid order may owe its invoice before a sweep issues it. */
  readonly invoiceRetryAfterMs: number;
  readonly altPayment: { apiKey: string | undefined; webhookSecret: string };
  readonly accountingApiKey: string | undefined;
  readonly invoiceIssuerName: string;
  readonly stomp: StompSettings;
  readonly providers: ProviderChoice;

  private constructor(env: EnvironmentVariables, stdoutIsTerminal: boolean) {
    this.nodeEnv = env.NODE_ENV;
    this.isProduction = env.NODE_ENV === NodeEnv.Production;
    this.port = env.PORT;
    this.host = env.HOST ?? (this.isProduction ? '0.0.0.0' : '127.0.0.1');
    this.mongodbUri = env.MONGODB_URI;
    this.dataDir = resolve(env.DATA_DIR);
    this.embeddedDbInMemory = env.EMBEDDED_DB_IN_MEMORY;
    this.storefrontCacheBytes = env.STOREFRONT_CACHE_MB * 1024 * 1024;
    this.embeddedDbLowerPriority = env.EMBEDDED_DB_LOWER_PRIORITY;
    this.embeddedDbMaxHeapMb = env.EMBEDDED_DB_MAX_HEAP_MB;
    this.jwtSecret = env.JWT_SECRET;
    this.jwtTtlSeconds = parseDurationSeconds(env.JWT_TTL);
    this.adminUsername = env.ADMIN_USERNAME;
    this.adminPassword = env.ADMIN_PASSWORD;
    this.seedDemo = env.SEED_DEMO;
    this.corsOrigins = env.CORS_ORIGINS ? env.CORS_ORIGINS.split(',') : [];
    this.jsonBodyLimitBytes = env.JSON_BODY_LIMIT;
    this.jsonMaxDepth = env.JSON_MAX_DEPTH;
    this.shutdownTimeoutMs = env.SHUTDOWN_TIMEOUT_MS;
    this.shutdownDrainMs = env.SHUTDOWN_DRAIN_MS;
    this.beanRateLimitPerMinute = env.BEAN_RATE_LIMIT;
    this.logLevel = env.LOG_LEVEL;
    // Lines for people only where people read them: piped to a file or a collector, development logs stay JSON.
    const pretty = env.NODE_ENV === NodeEnv.Development && stdoutIsTerminal;
    this.logFormat = env.LOG_FORMAT ?? (pretty ? 'pretty' : 'json');
    this.trustProxy = parseTrustProxy(env.TRUST_PROXY);
    this.adminEmail = env.ADMIN_EMAIL;
    this.sessionTtlSeconds = parseDurationSeconds(env.SESSION_TTL);
    this.rememberMeTtlSeconds = parseDurationSeconds(env.REMEMBER_ME_TTL);
    this.authRateLimit = env.AUTH_RATE_LIMIT;
    this.authLockoutThreshold = env.AUTH_LOCKOUT_THRESHOLD;
    this.authLockoutSeconds = parseDurationSeconds(env.AUTH_LOCKOUT_TTL);
    this.authUsernameSoftLimit = env.AUTH_USERNAME_SOFT_LIMIT;
    this.authUsernameSlowSeconds = env.AUTH_USERNAME_SLOW_SECONDS;
    this.redis = env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : undefined;
    this.authEmailFlows = env.AUTH_EMAIL_FLOWS;
    this.consoleEnabled = env.CONSOLE_ENABLED ?? !this.isProduction;
    this.smtp = smtpSettings(env);
    this.mailFrom = env.MAIL_FROM;
    this.vcsRemoteUrl = env.VCS_REMOTE_URL;
    this.vcsBranch = env.VCS_BRANCH;
    this.uploadMaxBytes = env.UPLOAD_MAX_BYTES;
    this.jobLeaseMs = env.JOB_LEASE_MS;
    this.newPlantWebhook = {
      urls: env.NEW_PLANT_WEBHOOK_URLS ? env.NEW_PLANT_WEBHOOK_URLS.split(',') : [],
      token: env.NEW_PLANT_WEBHOOK_TOKEN ?? '',
      maxAttempts: env.NEW_PLANT_WEBHOOK_MAX_ATTEMPTS,
      backoffMs: env.NEW_PLANT_WEBHOOK_BACKOFF_MS,
    };
    this.webhookSecrets = { cardPayment: env.CARD_PAYMENT_WEBHOOK_SECRET, delivery: env.DELIVERY_WEBHOOK_SECRET };
    this.publicUrl = env.PUBLIC_URL;
    this.paymentReturnOrigins = env.PAYMENT_RETURN_ORIGINS ? env.PAYMENT_RETURN_ORIGINS.split(',') : [];
    this.orderRates = { taxPercent: env.ORDER_TAX_RATE, serviceFeePercent: env.ORDER_SERVICE_FEE_RATE };
    this.orderApproval = env.ORDER_APPROVAL;
    this.sellerOnboarding = env.SELLER_ONBOARDING;
    this.orderPaymentTtlMs = parseDurationSeconds(env.ORDER_PAYMENT_TTL) * 1000;
    this.invoiceRetryAfterMs = parseDurationSeconds(env.INVOICE_RETRY_AFTER) * 1000;
    this.altPayment = { apiKey: env.ALT_PAYMENT_API_KEY, webhookSecret: env.ALT_PAYMENT_WEBHOOK_SECRET };
    this.accountingApiKey = env.ACCOUNTING_API_KEY;
    this.invoiceIssuerName = env.INVOICE_ISSUER_NAME;
    this.stomp = stompSettings(env);
    this.providers = {
      payment: env.PAYMENT_PROVIDER ?? SANDBOX_PROVIDER,
      delivery: env.DELIVERY_PROVIDER ?? SANDBOX_PROVIDER,
      altPayment: env.ALT_PAYMENT_PROVIDER ?? SANDBOX_PROVIDER,
    };
  }

  /**
   * Validates `env` (empty values count as unset) and builds the config.
   * @throws ConfigValidationError listing every bad variable
   */
  static fromEnvironment(
    env: Record<string, string | undefined> = process.env,
    stdoutIsTerminal = process.stdout.isTTY === true,
  ): AppConfig {
    const variables = plainToInstance(EnvironmentVariables, knownVariables(env));
    const problems = validateSync(variables).map(
      (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`,
    );
    if (variables.NODE_ENV === NodeEnv.Production) {
      problems.push(...newProblems(problems, productionProblems(variables)));
    }
    if (problems.length > 0) throw new ConfigValidationError(problems);
    return new AppConfig(variables, stdoutIsTerminal);
  }
}

function knownVariables(env: Record<string, string | undefined>): Record<string, string> {
  const known: Record<string, string> = {};
  for (const key of Object.keys(new EnvironmentVariables())) {
    const value = env[key];
    if (value !== undefined && value !== '') known[key] = value;
  }
  return known;
}

/** Production refuses what is only fit for development: default or short secrets, unnamed sandboxes. */
function productionProblems(env: EnvironmentVariables): string[] {
  const problems: string[] = [];
  for (const { name, devDefault, minLength } of PRODUCTION_SECRETS) {
    const value = env[name];
    if (value === devDefault || value.length < minLength) {
      problems.push(`${name}: must be set to a secret of at least ${minLength} characters in production`);
    }
  }
  const webhookToken = env.NEW_PLANT_WEBHOOK_TOKEN ?? '';
  if (env.NEW_PLANT_WEBHOOK_URLS !== '' && webhookToken.length < MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH) {
    problems.push(
      `NEW_PLANT_WEBHOOK_TOKEN: must be set to a token of at least ${MIN_PRODUCTION_WEBHOOK_SECRET_LENGTH} ` +
        'characters in production when NEW_PLANT_WEBHOOK_URLS is set',
    );
  }
  for (const name of PROVIDER_VARIABLES) {
    if (env[name] === undefined) {
      problems.push(`${name}: must be named in production (${name}=${SANDBOX_PROVIDER} runs the sandbox deliberately)`);
    }
  }
  if (env.AUTH_EMAIL_FLOWS && !env.SMTP_URL && !env.SMTP_HOST) {
    problems.push('SMTP_URL: AUTH_EMAIL_FLOWS needs SMTP_URL or SMTP_HOST in production');
  }
  return problems;
}

/** `extra` problems about variables not already named in `problems` (one line per variable). */
function newProblems(problems: string[], extra: string[]): string[] {
  const named = new Set(problems.map((problem) => problem.split(':')[0]));
  return extra.filter((problem) => !named.has(problem.split(':')[0]));
}

function smtpSettings(env: EnvironmentVariables): SmtpSettings | undefined {
  if (env.SMTP_URL) return { url: env.SMTP_URL };
  if (!env.SMTP_HOST) return undefined;
  return {
    host: env.SMTP_HOST,
    port: env.SMTP_PORT,
    secure: env.SMTP_SECURE,
    user: env.SMTP_USER,
    password: env.SMTP_PASSWORD,
  };
}

function stompSettings(env: EnvironmentVariables): StompSettings {
  return {
    maxFrameBytes: env.STOMP_MAX_FRAME_BYTES,
    heartbeat: parseHeartbeat(env.STOMP_HEARTBEAT),
    maxBufferedBytes: env.STOMP_MAX_BUFFERED_BYTES,
    maxSubscriptionsPerSession: env.STOMP_MAX_SUBSCRIPTIONS,
    reverifyEveryMs: env.STOMP_REVERIFY_MS,
    clientSendPrefixes: env.STOMP_CLIENT_SEND_PREFIXES.split(',').filter((prefix) => prefix !== ''),
    relayUrl: env.STOMP_RELAY_URL ? new URL(env.STOMP_RELAY_URL) : undefined,
    relayNamespace: env.STOMP_RELAY_NAMESPACE,
    relayBufferSize: env.STOMP_RELAY_BUFFER,
  };
}

/** Heart-beats below the minimum are raised to it; 0 (none) stays. */
function parseHeartbeat(value: string): [number, number] {
  const [send, receive] = value.split(',').map((ms) => (Number(ms) === 0 ? 0 : Math.max(Number(ms), MIN_HEARTBEAT_MS)));
  return [send, receive];
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

function parseDurationSeconds(duration: string): number {
  const unit = duration.at(-1) ?? '';
  const multiplier = DURATION_UNIT_SECONDS[unit];
  return multiplier ? Number(duration.slice(0, -1)) * multiplier : Number(duration);
}
