import { AppConfig, ConfigValidationError } from './app-config';
import { DEV_JWT_SECRET } from './environment';

/** Production with every secret strong and every provider named. */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'j'.repeat(32),
  ADMIN_PASSWORD: 'a-strong-password',
  CARD_PAYMENT_WEBHOOK_SECRET: 'c'.repeat(32),
  DELIVERY_WEBHOOK_SECRET: 'd'.repeat(32),
  ALT_PAYMENT_WEBHOOK_SECRET: 'a'.repeat(32),
  PAYMENT_PROVIDER: 'sandbox',
  DELIVERY_PROVIDER: 'sandbox',
  ALT_PAYMENT_PROVIDER: 'sandbox',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    AppConfig.fromEnvironment(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  return [];
}

describe(AppConfig.name, () => {
  describe('fromEnvironment', () => {
    it('should apply the defaults to an empty environment', () => {
      const config = AppConfig.fromEnvironment({});
      expect(config).toMatchObject({
        port: 3000,
        host: '127.0.0.1',
        mongodbUri: undefined,
        jwtSecret: DEV_JWT_SECRET,
        jwtTtlSeconds: 3600,
        adminUsername: 'admin',
        seedDemo: true,
        corsOrigins: [],
        jsonBodyLimitBytes: 1048576,
        jsonMaxDepth: 128,
        shutdownTimeoutMs: 10000,
        shutdownDrainMs: 1000,
        beanRateLimitPerMinute: 1200,
      });
    });

    it('should treat empty values as unset', () => {
      expect(AppConfig.fromEnvironment({ MONGODB_URI: '', PORT: '' }).port).toBe(3000);
    });

    it('should parse typed values', () => {
      const config = AppConfig.fromEnvironment({
        PORT: '8080',
        JWT_TTL: '15m',
        SEED_DEMO: 'false',
        CORS_ORIGINS: 'https://shop.example.com,http://localhost:4200',
      });
      expect(config).toMatchObject({
        port: 8080,
        jwtTtlSeconds: 900,
        seedDemo: false,
        corsOrigins: ['https://shop.example.com', 'http://localhost:4200'],
      });
    });

    it.each([
      ['false', false],
      ['true', true],
      ['2', 2],
      ['10.0.0.0/8,127.0.0.1', '10.0.0.0/8,127.0.0.1'],
    ])('should read TRUST_PROXY=%s', (value, expected) => {
      expect(AppConfig.fromEnvironment({ TRUST_PROXY: value }).trustProxy).toBe(expected);
    });

    it('should list every bad variable by name', () => {
      const problems = problemsOf({
        PORT: 'abc',
        SEED_DEMO: 'yes',
        JWT_TTL: '1 hour',
        CORS_ORIGINS: 'shop',
        LOG_LEVEL: 'loud',
        TRUST_PROXY: 'a b',
      });
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual([
        'CORS_ORIGINS',
        'JWT_TTL',
        'LOG_LEVEL',
        'PORT',
        'SEED_DEMO',
        'TRUST_PROXY',
      ]);
    });

    it('should read the STOMP settings, raising heart-beats to the minimum', () => {
      const config = AppConfig.fromEnvironment({
        STOMP_HEARTBEAT: '500,0',
        STOMP_CLIENT_SEND_PREFIXES: '/topic/bench,/topic/rt-',
        STOMP_RELAY_URL: 'ws://user:pass@127.0.0.1:15674/ws',
      });
      expect(config.stomp).toMatchObject({
        maxFrameBytes: 65536,
        heartbeat: [1000, 0],
        clientSendPrefixes: ['/topic/bench', '/topic/rt-'],
      });
      expect(config.stomp.relayUrl?.href).toBe('ws://user:pass@127.0.0.1:15674/ws');
    });

    it('should read the shared-state settings', () => {
      const config = AppConfig.fromEnvironment({
        REDIS_URL: 'redis://:pw@redis:6379/2',
        STOMP_RELAY_NAMESPACE: 'shop-a',
      });
      expect(config.redis).toEqual({ url: 'redis://:pw@redis:6379/2', keyPrefix: 'ccb:' });
      expect(config.stomp).toMatchObject({ relayNamespace: 'shop-a', relayBufferSize: 1000 });
      expect(AppConfig.fromEnvironment({}).redis).toBeUndefined();
    });

    it('should read the order lifecycle settings, auto approval and 30 minutes to pay by default', () => {
      expect(AppConfig.fromEnvironment({})).toMatchObject({ orderApproval: 'auto', orderPaymentTtlMs: 1_800_000 });
      const manual = AppConfig.fromEnvironment({ ORDER_APPROVAL: 'manual', ORDER_PAYMENT_TTL: '2s' });
      expect(manual).toMatchObject({ orderApproval: 'manual', orderPaymentTtlMs: 2000 });
      expect(AppConfig.fromEnvironment({}).invoiceRetryAfterMs).toBe(300_000);
      expect(AppConfig.fromEnvironment({ INVOICE_RETRY_AFTER: '3s' }).invoiceRetryAfterMs).toBe(3000);
    });

    it('should leave seller applications to review unless onboarding is open', () => {
      expect(AppConfig.fromEnvironment({}).sellerOnboarding).toBe('review');
      expect(AppConfig.fromEnvironment({ SELLER_ONBOARDING: 'open' }).sellerOnboarding).toBe('open');
    });

    it('should read the origins a payment may return to after 3-D Secure, none by default', () => {
      expect(AppConfig.fromEnvironment({}).paymentReturnOrigins).toEqual([]);
      const origins = 'https://shop.example.com,http://127.0.0.1:8080';
      expect(AppConfig.fromEnvironment({ PAYMENT_RETURN_ORIGINS: origins }).paymentReturnOrigins).toEqual([
        'https://shop.example.com',
        'http://127.0.0.1:8080',
      ]);
    });

    it.each([
      ['STOMP_HEARTBEAT', '10s'],
      ['STOMP_MAX_FRAME_BYTES', '512'],
      ['STOMP_RELAY_URL', 'http://127.0.0.1:15674/ws'],
      ['STOMP_RELAY_NAMESPACE', 'Shop.A'],
      ['STOMP_RELAY_BUFFER', '-1'],
      ['REDIS_URL', 'http://127.0.0.1:6379'],
      ['REDIS_KEY_PREFIX', 'a b'],
      ['AUTH_USERNAME_SOFT_LIMIT', '0'],
      ['AUTH_USERNAME_SLOW_SECONDS', '1s'],
      ['ORDER_APPROVAL', 'sometimes'],
      ['LOG_FORMAT', 'xml'],
      ['SELLER_ONBOARDING', 'OPEN'],
      ['ORDER_PAYMENT_TTL', '0'],
      ['ORDER_PAYMENT_TTL', '30 minutes'],
      ['INVOICE_RETRY_AFTER', '0'],
      ['PAYMENT_RETURN_ORIGINS', 'https://shop.example.com/return'],
      ['PAYMENT_RETURN_ORIGINS', 'shop.example.com'],
      ['PAYMENT_RETURN_ORIGINS', 'javascript:alert(1)'],
      ['EMBEDDED_DB_MAX_HEAP_MB', '32'],
      ['EMBEDDED_DB_MAX_HEAP_MB', '4GB'],
      ['EMBEDDED_DB_MAX_HEAP_MB', '1.5'],
    ])('should refuse %s=%s', (name, value) => {
      expect(problemsOf({ [name]: value }).map((p) => p.split(':')[0])).toEqual([name]);
    });

    it('should log pretty lines in development on a terminal and JSON elsewhere unless LOG_FORMAT says', () => {
      expect(AppConfig.fromEnvironment({}, true).logFormat).toBe('pretty');
      expect(AppConfig.fromEnvironment({}, false).logFormat).toBe('json');
      expect(AppConfig.fromEnvironment({ NODE_ENV: 'test' }, true).logFormat).toBe('json');
      expect(AppConfig.fromEnvironment({ ...PRODUCTION }, true).logFormat).toBe('json');
      expect(AppConfig.fromEnvironment({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
      expect(AppConfig.fromEnvironment({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
      expect(AppConfig.fromEnvironment({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    });

    it('should refuse every default secret and unnamed provider in production, all at once', () => {
      const problems = problemsOf({ NODE_ENV: 'production' });
      expect(problems.map((p) => p.split(':')[0])).toEqual([
        'JWT_SECRET',
        'ADMIN_PASSWORD',
        'CARD_PAYMENT_WEBHOOK_SECRET',
        'DELIVERY_WEBHOOK_SECRET',
        'ALT_PAYMENT_WEBHOOK_SECRET',
        'PAYMENT_PROVIDER',
        'DELIVERY_PROVIDER',
        'ALT_PAYMENT_PROVIDER',
      ]);
    });

    it.each([
      ['JWT_SECRET', 'x'.repeat(31)],
      ['ADMIN_PASSWORD', 'short-pass1'],
      ['CARD_PAYMENT_WEBHOOK_SECRET', 'c'.repeat(31)],
      ['DELIVERY_WEBHOOK_SECRET', 'd'.repeat(31)],
      ['ALT_PAYMENT_WEBHOOK_SECRET', 'a'.repeat(31)],
    ])('should refuse a short %s in production', (name, value) => {
      const problems = problemsOf({ ...PRODUCTION, [name]: value });
      expect(problems).toEqual([expect.stringMatching(new RegExp(`^${name}: must`))]);
    });

    it('should name a secret once when it is both invalid and too short for production', () => {
      expect(problemsOf({ ...PRODUCTION, JWT_SECRET: 'short' }).map((p) => p.split(':')[0])).toEqual(['JWT_SECRET']);
    });

    it('should list production problems together with invalid values', () => {
      const problems = problemsOf({ NODE_ENV: 'production', PORT: 'abc', PAYMENT_PROVIDER: 'acme' });
      const named = problems.map((p) => p.split(':')[0]);
      expect(named).toEqual(expect.arrayContaining(['PORT', 'PAYMENT_PROVIDER', 'JWT_SECRET']));
      expect(problems.filter((p) => p.startsWith('PAYMENT_PROVIDER'))).toEqual([
        'PAYMENT_PROVIDER: PAYMENT_PROVIDER must be sandbox (the only built-in implementation)',
      ]);
    });

    it('should refuse New Plant subscribers without a long token in production', () => {
      const subscribed = { ...PRODUCTION, NEW_PLANT_WEBHOOK_URLS: 'https://hooks.example.com/plants' };
      expect(problemsOf(subscribed).map((p) => p.split(':')[0])).toEqual(['NEW_PLANT_WEBHOOK_TOKEN']);
      expect(problemsOf({ ...subscribed, NEW_PLANT_WEBHOOK_TOKEN: 't'.repeat(31) })).toHaveLength(1);
      expect(problemsOf({ ...subscribed, NEW_PLANT_WEBHOOK_TOKEN: 't'.repeat(32) })).toEqual([]);
    });

    it('should accept strong secrets and named providers in production and listen on all interfaces', () => {
      const config = AppConfig.fromEnvironment(PRODUCTION);
      expect(config.host).toBe('0.0.0.0');
      expect(config.providers).toEqual({ payment: 'sandbox', delivery: 'sandbox', altPayment: 'sandbox' });
    });

    it('should run the sandboxes outside production without naming them', () => {
      const { providers } = AppConfig.fromEnvironment({});
      expect(providers).toEqual({ payment: 'sandbox', delivery: 'sandbox', altPayment: 'sandbox' });
    });
  });
});
