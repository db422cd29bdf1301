/** What one POST to a subscriber came to. */
export type PostOutcome =
  { result: 'delivered'; status: number } | { result: 'retry' | 'refused'; status?: number; error: string };

/** Statuses worth another attempt; any other 4xx means the subscriber refuses this delivery for good. */
const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

export interface WebhookPost {
  url: string;
  body: string;
  token: string;
  /** Sent as `Idempotency-Key`: the same on every attempt of one delivery. */
  idempotencyKey: string;
}

/** Posts the body with the bearer token; never throws. */
export async function postWebhook(post: WebhookPost, signal: AbortSignal): Promise<PostOutcome> {
  try {
    const response = await fetch(post.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${post.token}`,
        'Idempotency-Key': post.idempotencyKey,
      },
      body: post.body,
      signal,
    });
    await response.body?.cancel();
    const { status } = response;
    if (response.ok) return { result: 'delivered', status };
    return { result: RETRYABLE(status) ? 'retry' : 'refused', status, error: `HTTP ${status}` };
  } catch (error) {
    return { result: 'retry', error: String(error) };
  }
}
