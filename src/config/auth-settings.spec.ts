import { randomBytes } from 'node:crypto';
import { AppConfig, ConfigValidationError } from './app-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    AppConfig.fromEnvironment(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
}

const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(32).toString('hex'),
  ADMIN_PASSWORD: 'a-long-admin-password',
  CARD_PAYMENT_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  DELIVERY_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  ALT_PAYMENT_WEBHOOK_SECRET: randomBytes(32).toString('hex'),
  PAYMENT_PROVIDER: 'sandbox',
  DELIVERY_PROVIDER: 'sandbox',
  ALT_PAYMENT_PROVIDER: 'sandbox',
};

describe('authentication and mail settings', () => {
  it('should default to 8 h sessions, 30 d remember-me, 10 attempts a minute, lockout after 5 for 15 min, no flows', () => {
    expect(AppConfig.fromEnvironment({})).toMatchObject({
      adminEmail: 'admin@localhost',
      sessionTtlSeconds: 8 * 3600,
      rememberMeTtlSeconds: 30 * 86400,
      authRateLimit: 10,
      authLockoutThreshold: 5,
      authLockoutSeconds: 900,
      authEmailFlows: false,
      smtp: undefined,
      mailFrom: 'no-reply@localhost',
    });
  });

  it('should prefer SMTP_URL over host settings', () => {
    const config = AppConfig.fromEnvironment({
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      SMTP_HOST: 'ignored.example.com',
    });
    expect(config.smtp).toEqual({ url: 'smtps://u:p@mail.example.com:465' });
  });

  it('should build SMTP host settings', () => {
    const config = AppConfig.fromEnvironment({
      SMTP_HOST: 'mail.example.com',
      SMTP_PORT: '465',
      SMTP_SECURE: 'true',
      SMTP_USER: 'shop',
    });
    expect(config.smtp).toEqual({
      host: 'mail.example.com',
      port: 465,
      secure: true,
      user: 'shop',
      password: undefined,
    });
  });

  it('should name every bad variable', () => {
    const problems = problemsOf({
      SESSION_TTL: 'forever',
      AUTH_RATE_LIMIT: '0',
      AUTH_EMAIL_FLOWS: 'yes',
      SMTP_URL: 'http://mail',
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual(
      expect.arrayContaining(['SESSION_TTL', 'AUTH_RATE_LIMIT', 'AUTH_EMAIL_FLOWS', 'SMTP_URL']),
    );
  });

  it('should refuse e-mail flows without an SMTP server in production', () => {
    expect(problemsOf({ ...PRODUCTION, AUTH_EMAIL_FLOWS: 'true' })).toEqual([
      'SMTP_URL: AUTH_EMAIL_FLOWS needs SMTP_URL or SMTP_HOST in production',
    ]);
    expect(problemsOf({ ...PRODUCTION, AUTH_EMAIL_FLOWS: 'true', SMTP_HOST: 'mail.example.com' })).toEqual([]);
  });
});
