import { AppConfig, ConfigValidationError } from './app-config';
import { DEV_JWT_SECRET } from './environment';

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
        beanRateLimitPerMinute: 1200,
        facetCacheEntries: 1000,
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
      const problems = problemsOf({ PORT: 'abc', SEED_DEMO: 'yes', JWT_TTL: '1 hour', CORS_ORIGINS: 'shop', LOG_LEVEL: 'loud', TRUST_PROXY: 'a b' });
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['CORS_ORIGINS', 'JWT_TTL', 'LOG_LEVEL', 'PORT', 'SEED_DEMO', 'TRUST_PROXY']);
    });

    it('should read the STOMP settings, raising heart-beats to the minimum', () => {
      const config = AppConfig.fromEnvironment({
        STOMP_HEARTBEAT: '500,0',
        STOMP_CLIENT_SEND_PREFIXES: '/topic/bench,/topic/rt-',
        STOMP_RELAY_URL: 'ws://user:pass@127.0.0.1:15674/ws',
      });
      expect(config.stomp).toMatchObject({ maxFrameBytes: 65536, heartbeat: [1000, 0], clientSendPrefixes: ['/topic/bench', '/topic/rt-'] });
      expect(config.stomp.relayUrl?.href).toBe('ws://user:pass@127.0.0.1:15674/ws');
    });

    it('should read the shared-state settings', () => {
      const config = AppConfig.fromEnvironment({ REDIS_URL: 'redis://:pw@redis:6379/2', STOMP_RELAY_NAMESPACE: 'shop-a' });
      expect(config.redis).toEqual({ url: 'redis://:pw@redis:6379/2', keyPrefix: 'ccb:' });
      expect(config.stomp).toMatchObject({ relayNamespace: 'shop-a', relayBufferSize: 1000 });
      expect(AppConfig.fromEnvironment({}).redis).toBeUndefined();
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
      ['FACET_CACHE_ENTRIES', '-1'],
      ['FACET_CACHE_ENTRIES', 'many'],
      ['FACET_CACHE_ENTRIES', '1.5'],
    ])('should refuse %s=%s', (name, value) => {
      expect(problemsOf({ [name]: value }).map((p) => p.split(':')[0])).toEqual([name]);
    });

    it('should refuse default secrets in production', () => {
      const problems = problemsOf({ NODE_ENV: 'production' });
      expect(problems.map((p) => p.split(':')[0])).toEqual(['JWT_SECRET', 'ADMIN_PASSWORD']);
    });

    it('should refuse short secrets in production', () => {
      const problems = problemsOf({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31), ADMIN_PASSWORD: 'short-pass1' });
      expect(problems).toHaveLength(2);
    });

    it('should accept strong secrets in production and listen on all interfaces', () => {
      const config = AppConfig.fromEnvironment({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), ADMIN_PASSWORD: 'a-strong-password' });
      expect(config.host).toBe('0.0.0.0');
    });
  });
});
