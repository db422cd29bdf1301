import { randomBytes } from 'node:crypto';

/** A production environment the server accepts: fresh strong secrets, every sandbox provider named deliberately. */
export function productionEnvironment(adminPassword = 'a-long-production-password'): Record<string, string> {
  const secret = () => randomBytes(32).toString('hex');
  return {
    NODE_ENV: 'production',
    JWT_SECRET: secret(),
    ADMIN_PASSWORD: adminPassword,
    CARD_PAYMENT_WEBHOOK_SECRET: secret(),
    DELIVERY_WEBHOOK_SECRET: secret(),
    ALT_PAYMENT_WEBHOOK_SECRET: secret(),
    PAYMENT_PROVIDER: 'sandbox',
    DELIVERY_PROVIDER: 'sandbox',
    ALT_PAYMENT_PROVIDER: 'sandbox',
  };
}
