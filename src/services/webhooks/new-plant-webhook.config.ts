/** Subscribers of the New Plant webhook and its delivery policy, from the environment. */
export interface NewPlantWebhookConfig {
  urls: string[];
  token: string;
  maxAttempts: number;
  backoffMs: number;
  timeoutMs: number;
}

export const NEW_PLANT_WEBHOOK_CONFIG = Symbol('NEW_PLANT_WEBHOOK_CONFIG');

export function newPlantWebhookConfig(env: NodeJS.ProcessEnv = process.env): NewPlantWebhookConfig {
  return {
    urls: (env.NEW_PLANT_WEBHOOK_URLS ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
    token: env.NEW_PLANT_WEBHOOK_TOKEN ?? '',
    maxAttempts: positive(env.NEW_PLANT_WEBHOOK_MAX_ATTEMPTS, 6),
    backoffMs: positive(env.NEW_PLANT_WEBHOOK_BACKOFF_MS, 1000),
    timeoutMs: positive(env.NEW_PLANT_WEBHOOK_TIMEOUT_MS, 5000),
  };
}

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}
