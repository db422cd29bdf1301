import { Injectable } from '@nestjs/common';
import { SelfUrl } from './self-url';
import { SIGNATURE_HEADER, signWebhook } from './webhook-signature';

const ATTEMPTS = 3;
const RETRY_DELAY_MS = 200;
const TIMEOUT_MS = 10_000;

/** How the built-in sandboxes deliver their webhooks: a real signed HTTP POST to this server, retried on failure. */
@Injectable()
export class SignedWebhookSender {
  constructor(private readonly self: SelfUrl) {}

  /** @throws Error when every attempt failed */
  async send(path: string, event: object, secret: string): Promise<void> {
    const body = JSON.stringify(event);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.post(path, body, secret);
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * attempt));
      }
    }
  }

  private async post(path: string, body: string, secret: string): Promise<void> {
    const response = await fetch(`${this.self.local()}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signWebhook(body, secret) },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`Webhook ${path} answered ${response.status}`);
  }
}
